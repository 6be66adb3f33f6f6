"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe): no WebDriver, no websocket library, stdlib only.
The room's browser test and bench use it.

    with Chromium(width=1400, height=900) as br:
        br.goto("http://127.0.0.1:8080/")
        br.eval("document.title")
        br.wait("document.querySelectorAll('.card').length >= 3")
        br.screenshot("build/screenshots/room-grid.png")
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def find_chromium():
    for p in PATHS:
        if os.access(p, os.X_OK):
            return p
    return shutil.which("chromium") or shutil.which("chromium-browser")


class CdpError(RuntimeError):
    pass


class Chromium:
    def __init__(self, exe=None, width=1400, height=900, scale=1):
        self.exe = exe or find_chromium()
        if not self.exe:
            raise RuntimeError("chromium not found (Debian: apt-get install chromium)")
        self.width, self.height, self.scale = width, height, scale
        self.profile = tempfile.mkdtemp(prefix="gogadget-chromium-")
        self.next_id = 0
        self.replies = {}
        self.events = []
        self.cond = threading.Condition()
        self.session = None
        self.proc = None

    def start(self):
        cmd_r, cmd_w = os.pipe()  # we write commands; the browser reads its fd 3
        out_r, out_w = os.pipe()  # the browser writes its fd 4; we read
        args = [self.exe, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--hide-scrollbars", "--force-color-profile=srgb",
                "--force-device-scale-factor=%s" % self.scale,
                "--window-size=%d,%d" % (self.width, self.height),
                "--user-data-dir=" + self.profile, "--remote-debugging-pipe", "about:blank"]
        # The pipe must be fds 3 and 4 in the browser: a shell puts them there.
        self.proc = subprocess.Popen(
            ["sh", "-c", 'exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null'] + args,
            stdin=cmd_r, stdout=out_w, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(out_w)
        self.wfd = cmd_w
        self.rfile = os.fdopen(out_r, "rb", buffering=0)
        threading.Thread(target=self._read, daemon=True).start()
        target = None
        end = time.monotonic() + 30
        while target is None:
            infos = self.call("Target.getTargets", session=False)["targetInfos"]
            target = next((t for t in infos if t["type"] == "page"), None)
            if target is None:
                if time.monotonic() > end:
                    raise CdpError("no page in the browser")
                time.sleep(0.1)
        self.session = self.call("Target.attachToTarget", {"targetId": target["targetId"],
                                                           "flatten": True},
                                 session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": self.scale,
                   "mobile": False})
        return self

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = self.rfile.read(65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self.cond:
                    self.replies[None] = "closed"
                    self.cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self.cond:
                    if "id" in msg:
                        self.replies[msg["id"]] = msg
                    else:
                        self.events.append(msg)
                        del self.events[:-200]
                    self.cond.notify_all()

    def call(self, method, params=None, session=True, timeout=30):
        with self.cond:
            self.next_id += 1
            i = self.next_id
        msg = {"id": i, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.wfd, data):]
        end = time.monotonic() + timeout
        with self.cond:
            while i not in self.replies:
                if None in self.replies:
                    raise CdpError("the browser closed its pipe")
                left = end - time.monotonic()
                if left <= 0:
                    raise CdpError("%s: no answer in %ss" % (method, timeout))
                self.cond.wait(left)
            reply = self.replies.pop(i)
        if "error" in reply:
            raise CdpError("%s: %s" % (method, reply["error"].get("message")))
        return reply.get("result", {})

    def goto(self, url, timeout=30):
        self.call("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete'", timeout)

    def eval(self, expression, timeout=30):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in r:
            raise CdpError("page: %s" % r["exceptionDetails"].get("exception", {}).get(
                "description", r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def wait(self, expression, timeout=20, what=None):
        end = time.monotonic() + timeout
        while True:
            if self.eval(expression):
                return
            if time.monotonic() > end:
                raise TimeoutError("page: waited %ss for %s" % (timeout, what or expression))
            time.sleep(0.05)

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            h = self.eval("document.documentElement.scrollHeight")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": self.width, "height": h, "scale": 1})
        data = base64.b64decode(self.call("Page.captureScreenshot", params)["data"])
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def close(self):
        if self.proc is not None:
            try:
                self.call("Browser.close", session=False, timeout=5)
            except (CdpError, OSError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
            os.close(self.wfd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
