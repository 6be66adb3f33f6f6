// Go Gadget room: every board live from the relay's Server-Sent Events.
// No libraries, no external resources: served by `gogadget relay` alone.
"use strict";

(function () {
  const COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  const NS = "http://www.w3.org/2000/svg";
  const boards = new Map();   // id -> the relay's summary of the board
  const cards = new Map();    // id -> its card element
  const pending = new Set();  // ids to draw at the next frame
  let openId = null;
  let frameAsked = false;
  const $ = (id) => document.getElementById(id);
  const grid = $("grid");
  const detail = $("detail");
  const template = $("card");

  // -- drawing a board ---------------------------------------------------

  function xy(coord) { return [coord.charCodeAt(0) - 97, coord.charCodeAt(1) - 97]; }

  function gtp(coord, size) {
    if (!coord) return "pass";
    const [x, y] = xy(coord);
    return COLS[x] + (size - y);
  }

  function stars(n) {
    if (n < 7) return [];
    const e = n < 13 ? 2 : 3, f = n - 1 - e, m = (n - 1) / 2;
    const pts = [[e, e], [f, f], [e, f], [f, e]];
    if (n % 2) pts.push([m, m]);
    if (n >= 19) pts.push([e, m], [f, m], [m, e], [m, f]);
    return pts;
  }

  function boardSVG(b, big) {
    const n = b.size, c = 10, m = big ? 17 : 7.5, W = 2 * m + (n - 1) * c, end = m + (n - 1) * c;
    const out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + W + " " + W + '" role="img">');
    out.push('<rect width="' + W + '" height="' + W + '" rx="' + (big ? 4 : 3) + '" fill="url(#wood)"/>');
    if (big) out.push('<rect width="' + W + '" height="' + W + '" rx="4" filter="url(#grain)" opacity="0.5"/>');
    let d = "";
    for (let i = 0; i < n; i++) {
      const p = m + i * c;
      d += "M" + m + " " + p + "H" + end + "M" + p + " " + m + "V" + end;
    }
    out.push('<path d="' + d + '" stroke="#3d2b12" stroke-width="' + (big ? 0.42 : 0.5) + '" stroke-opacity="0.85" fill="none"/>');
    out.push('<rect x="' + m + '" y="' + m + '" width="' + (end - m) + '" height="' + (end - m) + '" stroke="#3d2b12" stroke-width="' + (big ? 0.8 : 0.8) + '" fill="none"/>');
    for (const [x, y] of stars(n)) {
      out.push('<circle cx="' + (m + x * c) + '" cy="' + (m + y * c) + '" r="' + (big ? 1.15 : 1.3) + '" fill="#3d2b12"/>');
    }
    if (big) {
      const f = 'font-size="4.1" fill="#6b4e22" font-family="inherit" text-anchor="middle" font-weight="600"';
      for (let i = 0; i < n; i++) {
        const p = m + i * c;
        out.push('<text x="' + p + '" y="' + (m - 8.5) + '" ' + f + ">" + COLS[i] + "</text>");
        out.push('<text x="' + p + '" y="' + (end + 11.5) + '" ' + f + ">" + COLS[i] + "</text>");
        out.push('<text x="' + (m - 10) + '" y="' + (p + 1.5) + '" ' + f + ">" + (n - i) + "</text>");
        out.push('<text x="' + (end + 10) + '" y="' + (p + 1.5) + '" ' + f + ">" + (n - i) + "</text>");
      }
    }
    const s = b.stones || "";
    const shadows = [], stones = [];
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (ch !== "b" && ch !== "w") continue;
      const cx = m + (i % n) * c, cy = m + Math.floor(i / n) * c;
      shadows.push('<circle cx="' + (cx + 0.45) + '" cy="' + (cy + 0.7) + '" r="' + R + '"/>');
      stones.push('<circle cx="' + cx + '" cy="' + cy + '" r="' + R + '" fill="url(#stone-' + ch + ')"' +
        (ch === "w" ? ' stroke="#8f8b80" stroke-width="0.22"' : "") + "/>");
    }
    out.push('<g class="shadows" fill="#000" fill-opacity="0.3">' + shadows.join("") + "</g>");
    out.push('<g class="stones">' + stones.join("") + "</g>");
    out.push('<circle class="lastmark" r="2.35" fill="none" stroke-width="' + (big ? 0.75 : 1.0) + '" visibility="hidden"/>');
    out.push("</svg>");
    return out.join("");
  }

  const R = 4.78;  // a stone's radius, the grid being 10

  function geometry(n, big) { return { c: 10, m: big ? 17 : 7.5, n }; }

  function markLast(svg, b, big) {
    const mark = svg.querySelector(".lastmark");
    const last = b.last || "";
    if (last.length !== 3) { mark.setAttribute("visibility", "hidden"); return; }
    const g = geometry(b.size, big);
    const [x, y] = xy(last.slice(1));
    mark.setAttribute("cx", g.m + x * g.c);
    mark.setAttribute("cy", g.m + y * g.c);
    mark.setAttribute("stroke", (b.stones || "")[y * b.size + x] === "b" ? "#f4f1e8" : "#1c1c1e");
    mark.setAttribute("visibility", "visible");
  }

  // A card's board is drawn once and then changed stone by stone: with
  // hundreds of boards, an update touches a few elements, not a whole board.
  function drawCardBoard(el, b) {
    const holder = el.querySelector(".board");
    let st = el._board;
    if (!st || st.size !== b.size) {
      // The first drawing is parsed from text (fast); its stones are then
      // found in the order they were written.
      holder.innerHTML = boardSVG(b, false);
      const svg = holder.firstChild;
      st = el._board = { size: b.size, stones: b.stones || "", svg, shadows: svg.querySelector(".shadows"),
        layer: svg.querySelector(".stones"), els: [] };
      const sh = st.shadows.children, stones = st.layer.children;
      let k = 0;
      for (let i = 0; i < st.stones.length; i++) {
        const ch = st.stones[i];
        if (ch === "b" || ch === "w") { st.els[i] = [sh[k], stones[k]]; k++; }
      }
    }
    const s = b.stones || "", old = st.stones, g = geometry(b.size, false);
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (ch === old[i]) continue;
      const e = st.els[i];
      if (e) { e[0].remove(); e[1].remove(); st.els[i] = null; }
      if (ch !== "b" && ch !== "w") continue;
      const cx = g.m + (i % g.n) * g.c, cy = g.m + Math.floor(i / g.n) * g.c;
      const sh = document.createElementNS(NS, "circle");
      sh.setAttribute("cx", cx + 0.45); sh.setAttribute("cy", cy + 0.7); sh.setAttribute("r", R);
      const stone = document.createElementNS(NS, "circle");
      stone.setAttribute("cx", cx); stone.setAttribute("cy", cy); stone.setAttribute("r", R);
      stone.setAttribute("fill", "url(#stone-" + ch + ")");
      if (ch === "w") { stone.setAttribute("stroke", "#8f8b80"); stone.setAttribute("stroke-width", "0.22"); }
      st.shadows.appendChild(sh);
      st.layer.appendChild(stone);
      st.els[i] = [sh, stone];
    }
    st.stones = s;
    markLast(st.svg, b, false);
  }

  function swatch(colour) {
    return '<svg class="swatch" viewBox="0 0 12 12" aria-hidden="true"><circle cx="6" cy="6" r="5.4" fill="url(#stone-' +
      colour + ')"' + (colour === "w" ? ' stroke="#8f8b80" stroke-width="0.3"' : ' stroke="#737a86" stroke-width="0.55"') + "/></svg>";
  }

  function toMove(b) {
    if (b.phase !== "play") return "";
    if (b.last) return b.last[0] === "B" ? "W" : "B";
    return b.handicap > 1 ? "W" : "B";
  }

  function playerRow(b, colour, big) {
    const el = document.createElement("div");
    const key = colour === "B" ? "black" : "white";
    el.className = "player" + (toMove(b) === colour ? " tomove" : "");
    el.innerHTML = swatch(colour.toLowerCase()) + '<span class="pname"></span><span class="caps"></span>';
    el.querySelector(".pname").textContent = b[key] || (colour === "B" ? "Black" : "White");
    const caps = (b.captures || [0, 0])[colour === "B" ? 0 : 1];
    el.querySelector(".caps").textContent = big ? caps + (caps === 1 ? " prisoner" : " prisoners") : (caps ? "+" + caps : "");
    el.querySelector(".caps").title = "stones captured";
    if (b.clock) {
      const c = document.createElement("span");
      c.className = "clock" + (b.clock[1] === colour ? " running" : "");
      c.dataset.board = b.id;
      c.dataset.colour = colour;
      c.title = b.clock[0] + " time" + (b.clock[1] === colour ? ", running" : "");
      showClock(c, b);
      el.append(c);
    }
    return el;
  }

  // The board's clock (docs/ROOM.md): [system, running colour or "", black ms,
  // black periods/stones, white ms, white periods/stones] as the relay had it
  // at clock_at; the running one is counted down here, between snapshots.
  function clockLeft(b, colour) {
    const c = b.clock;
    const i = colour === "B" ? 2 : 4;
    let ms = c[i];
    if (c[1] === colour) ms = Math.max(0, ms - (Date.now() - b.clock_at));
    return [ms, c[i + 1]];
  }

  function showClock(el, b) {
    const [ms, n] = clockLeft(b, el.dataset.colour);
    const s = Math.ceil(ms / 1000);
    const two = (v) => String(v).padStart(2, "0");
    let t = s >= 3600 ? Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60)
      : Math.floor(s / 60) + ":" + two(s % 60);
    if (n) t += b.clock[0] === "byoyomi" ? " \u00d7" + n : " /" + n;
    el.textContent = t;
    el.classList.toggle("low", ms <= 10000);
  }

  setInterval(() => {
    for (const el of document.querySelectorAll(".clock.running")) {
      const b = boards.get(el.dataset.board);
      if (b && b.clock) showClock(el, b);
    }
  }, 250);

  function pill(b) {
    if (b.game === undefined) return ["", "No game yet"];
    if (b.waiting) return ["wait", "Catching up"];
    if (b.phase === "over") return ["over", (b.result || "Ended") + (b.claim ? " (the board's claim)" : "")];
    if (b.phase === "count") return ["count", "Counting"];
    if (b.phase === "setup") return ["", "Setting up"];
    return ["play", "Live"];
  }

  function moveText(b) {
    if (b.game === undefined) return "";
    if (!b.n) return "No moves yet";
    return "Move " + b.n;
  }

  // -- the grid ----------------------------------------------------------

  const near = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const el = e.target;
      el._near = e.isIntersecting;
      if (el._near && el._stale) {
        el._stale = false;
        const b = boards.get(el.dataset.board);
        if (b && b.size) drawCardBoard(el, b);
      }
    }
  }, { rootMargin: "800px 0px" });

  function natural(a, b) { return a.localeCompare(b, undefined, { numeric: true }); }

  function cardFor(id) {
    let el = cards.get(id);
    if (el) return el;
    el = template.content.firstElementChild.cloneNode(true);
    el.dataset.board = id;
    el.addEventListener("click", () => { location.hash = "#board=" + encodeURIComponent(id); });
    el.addEventListener("keydown", (e) => { if (e.key === "Enter") location.hash = "#board=" + encodeURIComponent(id); });
    cards.set(id, el);
    near.observe(el);
    const ids = [...cards.keys()].sort(natural);
    const next = ids[ids.indexOf(id) + 1];
    grid.insertBefore(el, next ? cards.get(next) : null);
    return el;
  }

  function drawCard(b) {
    const el = cardFor(b.id);
    const dot = el.querySelector(".dot");
    dot.className = "dot " + (b.online ? (b.faults ? "fault" : "on") : "off");
    dot.title = b.online ? (b.faults ? b.faults + " sensor fault(s)" + (b.note ? ": " + b.note : "") : "online") : "offline";
    // Two boards, one game (docs/ROOM.md, Pairing): shown once, on Black's card.
    const name = el.querySelector(".name");
    name.textContent = b.opponent ? b.id + " vs " + b.opponent : b.id;
    name.title = name.textContent;
    el.querySelector(".gameno").textContent = b.game !== undefined ? "game " + b.game : "";
    const moved = el.dataset.moves !== undefined && el.dataset.moves !== String(b.n);
    el.classList.toggle("offline", !b.online);
    el.classList.toggle("passed", !!b.last && b.last.length === 1);
    // Boards far off screen are drawn when they come near it: a room of
    // hundreds opens at once and an update there costs a few text changes.
    if (b.size) {
      if (el._near) drawCardBoard(el, b);
      else el._stale = true;
    }
    const players = el.querySelector(".players");
    players.replaceChildren();
    if (b.size) players.append(playerRow(b, "B", false), playerRow(b, "W", false));
    el.querySelector(".move").textContent = moveText(b);
    const [cls, text] = pill(b);
    const p = el.querySelector(".pill");
    p.className = "pill " + cls;
    p.textContent = text;
    p.title = text;
    el.dataset.moves = b.n === undefined ? "" : String(b.n);
    el.dataset.seq = b.seq === undefined ? "" : String(b.seq);
    el.dataset.last = b.last || "";
    el.dataset.phase = b.phase || "";
    el.dataset.online = b.online ? "1" : "0";
    el.hidden = !matches(b);
    if (moved) {
      el.classList.add("flash");
      setTimeout(() => el.classList.remove("flash"), 700);
    }
  }

  function matches(b) {
    if (b.mirror) return false;
    const q = $("filter").value.trim().toLowerCase();
    if (!q) return true;
    return [b.id, b.black, b.white].some((t) => (t || "").toLowerCase().includes(q));
  }

  function drawStats() {
    let online = 0, live = 0, over = 0;
    for (const b of boards.values()) {
      if (b.online) online++;
      if (b.phase === "play" || b.phase === "count") live++;
      if (b.phase === "over") over++;
    }
    $("stats").innerHTML = "<span><b>" + boards.size + "</b> boards</span><span><b>" + online +
      "</b> online</span><span><b>" + live + "</b> playing</span><span><b>" + over + "</b> finished</span>";
    $("empty").hidden = boards.size > 0;
  }

  // -- one board, large ----------------------------------------------------

  function drawDetail() {
    const b = openId && boards.get(openId);
    if (!b) { detail.hidden = true; return; }
    detail.hidden = false;
    detail.dataset.board = b.id;
    detail.dataset.moves = b.n === undefined ? "" : String(b.n);
    $("detail-board").innerHTML = b.size ? boardSVG(b, true) : "";
    if (b.size) markLast($("detail-board").firstChild, b, true);
    const name = $("d-name");
    name.innerHTML = '<span class="dot ' + (b.online ? (b.faults ? "fault" : "on") : "off") + '"></span><span></span>';
    name.lastChild.textContent = b.id;
    $("d-sub").textContent = b.game !== undefined ? "Game " + b.game + " · " + (b.online ? "online" : "offline") +
      (b.faults ? " · " + b.faults + " fault(s)" + (b.note ? ": " + b.note : "") : "") : "No game yet";
    const players = $("d-players");
    players.replaceChildren();
    if (b.size) players.append(playerRow(b, "B", true), playerRow(b, "W", true));
    const facts = $("d-facts");
    facts.replaceChildren();
    const fact = (k, v, cls) => {
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k; dd.textContent = v;
      if (cls) dd.className = cls;
      facts.append(dt, dd);
    };
    if (b.size) {
      const [, state] = pill(b);
      fact(b.phase === "over" ? "Result" : "State", state, b.phase === "over" ? "result" : "");
      fact("Board", b.size + "×" + b.size + (b.handicap ? ", handicap " + b.handicap : ""));
      fact("Komi", String(b.komi));
      if (b.rules) fact("Rules", b.rules.charAt(0).toUpperCase() + b.rules.slice(1));
      if (b.last) fact("Last move", (b.last[0] === "B" ? "Black " : "White ") + gtp(b.last.slice(1), b.size) +
        (b.lastcap ? ", captured " + b.lastcap : ""));
    }
    const list = $("d-moves");
    const moves = b.moves ? b.moves.split(",") : [];
    const items = moves.map((mv, i) => {
      const li = document.createElement("li");
      li.innerHTML = '<span class="no">' + (i + 1) + "</span>" + swatch(mv[0].toLowerCase()) + "<span></span>";
      li.lastChild.textContent = gtp(mv.slice(1), b.size);
      if (i === moves.length - 1) li.className = "last";
      return li;
    });
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
    list.replaceChildren(...items);
    if (atEnd) list.scrollTop = list.scrollHeight;
    const a = $("d-sgf");
    if (b.sgf) { a.href = b.sgf; a.setAttribute("download", b.id + "-" + b.game + ".sgf"); a.hidden = false; }
    else a.hidden = true;
  }

  function route() {
    const m = /^#board=(.+)$/.exec(location.hash);
    openId = m ? decodeURIComponent(m[1]) : null;
    drawDetail();
    if (openId) $("d-moves").scrollTop = 1e9;
  }

  // -- the live feed ---------------------------------------------------------

  function draw() {
    frameAsked = false;
    const now = Date.now();
    // New cards go in first, then where they are is read in one layout: the
    // boards near the screen are drawn in this very frame, not when the
    // observer first reports (a headless snapshot, a streaming overlay's,
    // may be taken before that).
    const fresh = [];
    for (const id of pending) if (!cards.has(id)) fresh.push(cardFor(id));
    const reach = window.innerHeight + 800;  // the observer's rootMargin
    for (const el of fresh) {
      const r = el.getBoundingClientRect();
      el._near = r.bottom > -800 && r.top < reach;
    }
    for (const id of pending) {
      const b = boards.get(id);
      drawCard(b);
      window.dispatchEvent(new CustomEvent("room-shown", { detail: { id, game: b.game, seq: b.seq, n: b.n, at: b.at, shown: now } }));
    }
    if (openId && pending.has(openId)) drawDetail();
    pending.clear();
    drawStats();
  }

  function ask() {
    if (frameAsked) return;
    frameAsked = true;
    // A hidden tab gets no animation frames: draw on a timer there.
    if (document.hidden) setTimeout(draw, 100); else requestAnimationFrame(draw);
  }

  function take(list) {
    for (const b of list) { boards.set(b.id, b); pending.add(b.id); }
    ask();
  }

  function setLink(state, text) {
    const l = $("link");
    l.className = "link " + state;
    l.querySelector(".label").textContent = text;
  }

  let source = null;
  function connect() {
    if (source) source.close();
    source = new EventSource("/events");
    source.addEventListener("state", (e) => {
      const s = JSON.parse(e.data);
      const ids = new Set(s.boards.map((b) => b.id));
      for (const [id, el] of cards) if (!ids.has(id)) { el.remove(); cards.delete(id); boards.delete(id); }
      take(s.boards);
      relay(s.relay);
    });
    source.addEventListener("update", (e) => take(JSON.parse(e.data).boards));
    source.addEventListener("relay", (e) => relay(JSON.parse(e.data)));
    source.onerror = () => {
      setLink("down", "reconnecting");
      // The browser retries by itself unless the answer was an error page.
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    };
  }

  function relay(r) {
    if (r && r.broker) setLink("on", "live");
    else setLink("down", "relay has no broker");
  }

  window.room = { boards };
  $("filter").addEventListener("input", () => { for (const b of boards.values()) cards.get(b.id).hidden = !matches(b); });
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && openId) location.hash = ""; });
  detail.addEventListener("click", (e) => { if (e.target === detail) location.hash = ""; });
  $("d-close").addEventListener("click", (e) => { e.preventDefault(); location.hash = ""; });
  route();
  // The room as it was when the page was served (/state.js): drawn at once.
  if (window.ROOM_STATE) { take(window.ROOM_STATE.boards); relay(window.ROOM_STATE.relay); }
  connect();
})();
