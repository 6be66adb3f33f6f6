"""The parts a physical board is drawn from (magnet, Hall sensor, ADC), their settings, and a magnet's field."""
import math

from host_sim.tools import geometry

# --- the parts (hardware/README.md, hardware/bom.csv) ----------------------
# The geometry is the PCB's (host_sim/tools/geometry.py, which the board
# generator places by): the grid pitch across and along, the magnet's height
# over the Hall element for the documented stack-up, the LED beside it.
GRID_MM = geometry.GRID_MM  # (across, along)
MAGNET_DIAMETER_MM = 6.0
MAGNET_THICKNESS_MM = geometry.MAGNET_THICKNESS_MM
N35_BR_T = 1.19  # remanence of N35 (1.17-1.21 T)
MU0 = 4e-7 * math.pi
MAGNET_MOMENT = N35_BR_T * math.pi * (MAGNET_DIAMETER_MM / 2) ** 2 * MAGNET_THICKNESS_MM * 1e-9 / MU0
MAGNET_TC = -0.0012  # N35 remanence per degree C (reversible)
VCC = 3.3
HALL_SENS_MV_MT = 1.4 * 10 * VCC / 5.0  # SS49E: 1.4 mV/G at 5 V, ratiometric -> 9.24 mV/mT
HALL_SWING_V = (0.2, VCC - 0.2)  # the output stage's reach
ADC_BITS = 12
ADC_FULL = 1 << ADC_BITS
LSB_MV = VCC * 1000.0 / ADC_FULL
CONVERSION_US = 2.0  # 96 ADC clocks at 48 MHz
E11_CODES = (512, 1536, 2560, 3584)  # RP2040-E11: the ADC's widest code bins
E11_WIDTH = 9  # LSB those bins span (their neighbours go missing)
KERNEL_STEP_MM = 0.25
# Each LED's supply current closes through its own 100 nF over the ground
# plane: a loop of about the package's area (WS2812B-5050, 5 x 5 mm), a
# magnetic dipole in the board's plane, sensor_to_led_mm from the Hall
# element beside it.  Its field there is far below the sensor's noise (the
# README's "10 mm or more from a Hall sensor", made a number).
LED_LOOP_MM2 = 25.0
LED_TO_SENSOR_MM = geometry.sensor_to_led_mm()
REACH = 2  # points either way a stone's field is summed over


class Setting:
    """The physical choices a board is drawn from (all may be overridden)."""

    FIELDS = (
        ("height_mm", geometry.magnet_height_mm(), "magnet centre above the Hall element (the stack-up)"),
        ("magnet_lo", 0.7, "weakest magnet, times nominal"),
        ("magnet_hi", 1.3, "strongest magnet, times nominal"),
        ("offset_mm", 5.0, "largest distance a stone lands from its point"),
        ("offset_exact", False, "every stone exactly offset_mm off (worst case)"),
        ("flipped", 0.0, "share of stones with their magnet upside down"),
        ("sens_spread", 0.2, "Hall sensitivity +- share per part"),
        ("offset_spread", 0.2, "Hall quiescent voltage +- share per part"),
        ("drift_mv_c", 1.0, "Hall quiescent drift, +- mV per degree C per part"),
        ("sens_tc", -0.0006, "Hall sensitivity per degree C"),
        ("temp_start", 20.0, "degrees C at calibration"),
        ("temp_end", 30.0, "degrees C the sensors reach"),
        ("warm_ms", 1200000, "virtual ms from temp_start to temp_end"),
        ("hall_noise_mt", 0.1, "Hall noise, mT rms input-referred"),
        ("adc_noise_lsb", 1.0, "ADC noise, LSB rms"),
        ("tau_us", 0.2, "RC of the two mux levels and the sample capacitor"),
        ("first_sample_us", 0.5, "select write -> first conversion's sample"),
        ("ground_mohm", 5.0, "ground resistance the LED current shares with the ADC"),
        ("budget_ma", 2000, "the LED driver's current cap (config.budget_ma)"),
        ("led_ma", None, "LED current in play (None: the frame's own; calibration: its own frames)"),
        ("pull_in_mt", 3.4, "reed/digital Hall pull-in |Bz|"),
        ("pull_spread", 0.2, "pull-in +- share per part"),
        ("drop_share", 0.7, "drop-out as a share of pull-in"),
        ("bounce_ms", 1.0, "contact bounce after a switch closes or opens"),
    )

    def __init__(self, name="custom", **kw):
        self.name = name
        for field, default, _ in self.FIELDS:
            setattr(self, field, kw.pop(field, default))
        if kw:
            raise ValueError("no physical setting %s" % ", ".join(sorted(kw)))

    def but(self, name=None, **kw):
        values = {f: getattr(self, f) for f, _, _ in self.FIELDS}
        values.update(kw)
        return Setting(name or self.name, **values)

    def describe(self):
        return ", ".join("%s=%s" % (f, getattr(self, f)) for f, _, _ in self.FIELDS)


NOMINAL = Setting("nominal")
# Weakest magnets, largest offsets, the hottest game after a cold
# calibration, the full LED budget, the slowest analog path at the shortest
# settling the firmware uses (pins.SETTLE_READS).
WORST = NOMINAL.but("worst", magnet_lo=0.7, magnet_hi=0.7, offset_exact=True,
                    temp_start=10.0, temp_end=40.0, warm_ms=600000, tau_us=0.5,
                    ground_mohm=5.0, led_ma=2000, drift_mv_c=1.5, bounce_ms=2.0)
SETTINGS = {"nominal": NOMINAL, "worst": WORST}


def setting(name_or_setting):
    if isinstance(name_or_setting, Setting):
        return name_or_setting
    try:
        return SETTINGS[name_or_setting]
    except KeyError:
        raise ValueError("no physical setting %r (known: %s)" % (name_or_setting, ", ".join(SETTINGS)))


# --- the field ------------------------------------------------------------

def led_field_mt(led_ma, distance_mm=LED_TO_SENSOR_MM):
    """Field (mT) at a Hall element from one LED's supply loop drawing
    led_ma: a dipole I * A in the board's plane, seen edge-on from
    distance_mm (mu0 m / (4 pi d^3))."""
    moment = led_ma / 1000.0 * LED_LOOP_MM2 * 1e-6  # A m^2
    return 1e-7 * moment / (distance_mm / 1000.0) ** 3 * 1e3



def _disc_dipoles():
    # The disc as 7 dipoles of equal share: its centre and a ring at the
    # radius that halves its area, so close-range fields are not a point's.
    r = MAGNET_DIAMETER_MM / 2 / math.sqrt(2)
    pts = [(0.0, 0.0)]
    for k in range(6):
        a = k * math.pi / 3
        pts.append((r * math.cos(a), r * math.sin(a)))
    return pts


_DISC = _disc_dipoles()


def bz_mt(dx_mm, dy_mm, height_mm, moment=MAGNET_MOMENT):
    """Vertical field (mT) at a sensor dx, dy from a N-up disc's centre,
    height_mm below it."""
    share = moment / len(_DISC)
    z2 = height_mm * height_mm
    total = 0.0
    for px, py in _DISC:
        x = dx_mm - px
        y = dy_mm - py
        r2 = x * x + y * y + z2
        total += (3 * z2 - r2) / (r2 * r2 * math.sqrt(r2))
    return 1e-7 * share * total * 1e12  # mm^-3 -> m^-3 (1e9), T -> mT (1e3)


class Kernels:
    """Field of one nominal N-up stone at its 5 x 5 neighbourhood, cached by
    the stone's offset (quantized to KERNEL_STEP_MM)."""

    def __init__(self, height_mm):
        self.height_mm = height_mm
        self.cache = {}

    def get(self, qx, qy):
        key = (qx, qy)
        k = self.cache.get(key)
        if k is None:
            ox = qx * KERNEL_STEP_MM
            oy = qy * KERNEL_STEP_MM
            k = []
            for dr in range(-REACH, REACH + 1):
                for dc in range(-REACH, REACH + 1):
                    # sensor at (dc, dr) points from the stone's point
                    k.append((dr, dc, bz_mt(dc * GRID_MM[0] - ox, dr * GRID_MM[1] - oy, self.height_mm)))
            self.cache[key] = k
        return k
