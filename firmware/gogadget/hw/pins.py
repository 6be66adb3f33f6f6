"""THE pin map of the reference design (hardware/README.md), and the wiring
arithmetic that goes with it: which mux channel, shift-register bit and LED
each place is wired to.

The drivers, the pin-level fakes in tests/mp and the wiring-diagram generator
(host_sim/tools/wiring.py, which names the signals: host_sim/tools/hwdoc.py's
GPIO_NAMES, kept off the board's heap) all read this module, so a change here changes the
firmware, the tests and the drawing together.  No `machine` import here: the
desktop tools import it too.
"""
from gogadget.compat import const

# --- Raspberry Pi Pico GPIO numbers --------------------------------------
# GP0/GP1 stay free for a UART console while debugging.

# Colour variant: two levels of CD74HC4067 16-channel analog multiplexers.
# Level 1: up to 32 muxes, one sensor per channel; their S0..S3 are all
# wired together to MUX_SELECT.  Level 2: one 4067 per ADC input ("bank");
# its channel k takes the common pin of level-1 mux (bank * 16 + k); the
# level-2 select lines are shared by both banks.  Every /E is tied to GND.
MUX_SELECT = (2, 3, 4, 5)  # level-1 S0, S1, S2, S3
BANK_SELECT = (6, 7, 8, 9)  # level-2 S0, S1, S2, S3
ADC_PINS = (26, 27)  # level-2 mux of bank 0 -> ADC0 (GP26), bank 1 -> ADC1 (GP27)
MUX_CHANNELS = const(16)

# Occupancy variant: a chain of 74HC165 read by SPI0.  Chip 0's QH goes to
# MISO; each chip's SER takes the next chip's QH; the last chip's SER is tied
# to GND, so the byte read after the chain is 0x00 when the chain is whole,
# and the spare inputs of the last chip are tied alternately to 3V3 and GND
# (shift_spare_level) so a chain stuck high or low, short or long, shows.
SPI_ID = const(0)
SPI_SCK = const(18)
SPI_MOSI = const(19)  # required by machine.SPI, not connected
SPI_MISO = const(20)
SHIFT_LOAD = const(21)  # SH/LD of every 165: low = load the inputs
SHIFT_BAUD = const(1000000)
SHIFT_ACTIVE_LOW = True  # reed / open-drain Hall pulls the input to GND

# Both variants.
LED_DATA = const(15)  # -> 74AHCT125 (5 V) -> DIN of LED 0
LED_STATE_MACHINE = const(0)  # RP2040: PIO0 SM0 drives LED_DATA (hw/ws2812pio.py)
BUTTON_PASS = const(10)  # buttons switch to GND, internal pull-ups
BUTTON_CONFIRM = const(11)
BUTTON_NEW = const(12)
STATUS_LED = "LED"  # the Pico's own LED (GP25; the CYW43 pin on a Pico W)
# Optional: a TM1637 4-digit display module shows the game clock
# (hw/tm1637.py; hardware/README.md, "Clock display").  Both lines
# open-drain, pulled up on the module; without one the board runs as ever.
DISPLAY_CLK = const(13)
DISPLAY_DIO = const(14)

# The analog node behind two mux levels holds the last sensor's voltage for
# a moment; one conversion is thrown away after every switch (section
# "Settling" of hardware/README.md).
SETTLE_READS = const(1)

# Raw readings (read_u16) this close to a rail mean a dead or shorted sensor.
RAIL_LOW = const(1024)
RAIL_HIGH = const(64512)

# Tile plan of the printed board (hardware/pcb, hardware/README.md "PCB
# tiles"): the widths of its tile columns, left to right, and the heights of
# its tile rows, bottom up, in points.  Every tile starts on an even row so
# its LED rows run the serpentine's way; a tile holds its own level-1 muxes
# (local place q = row * width + col on channel q % 16 of its mux q // 16)
# and a cable socket with two mux slots, fitted or not (tile_slots), so the
# controller's socket t is wired to the same level-2 inputs for every size.
# Tiles are counted column by column from the left, each column bottom up;
# level-1 mux m (slot k of tile t: m = 2t + k) is channel m % 16 of bank
# m // 16.  Any other size is one tile: the place order of the hand-wired
# board.
def tile_split(size):
    if size == 19:
        return (4, 5, 5, 5), (4, 4, 6, 5)
    if size == 13:
        return (4, 4, 5), (4, 4, 5)
    if size == 9:
        return (4, 5), (4, 5)
    return (size,), (size,)


def tile_muxes(width, height):
    """Level-1 multiplexers on a width x height tile."""
    return (width * height + MUX_CHANNELS - 1) // MUX_CHANNELS


def tile_slots(width, height):
    """Level-1 mux numbers a tile takes: its socket's two, or more for a
    one-tile board of more than 32 points."""
    return max(2, tile_muxes(width, height))


def mux_count(size):
    """Level-1 multiplexers needed for a size x size board."""
    cols, rows = tile_split(size)
    return sum(tile_muxes(w, h) for w in cols for h in rows)


def bank_count(size):
    cols, rows = tile_split(size)
    slots = sum(tile_slots(w, h) for w in cols for h in rows)
    return (slots + MUX_CHANNELS - 1) // MUX_CHANNELS


def mux_address(size, place):
    """Place -> (bank, level-2 channel, level-1 channel) by the tile plan."""
    cols, rows = tile_split(size)
    col = place % size
    row = place // size
    m = 0
    for w in cols:
        if col < w:
            break
        col -= w
        m += sum(tile_slots(w, h) for h in rows)
    for h in rows:
        if row < h:
            break
        row -= h
        m += tile_slots(w, h)
    q = row * w + col
    m += q // MUX_CHANNELS
    return m // MUX_CHANNELS, m % MUX_CHANNELS, q % MUX_CHANNELS


def mux_place(size, bank, channel2, channel1):
    """Inverse of mux_address; size * size for a spare channel or slot."""
    cols, rows = tile_split(size)
    m = bank * MUX_CHANNELS + channel2
    x = 0
    for w in cols:
        y = 0
        for h in rows:
            k = tile_slots(w, h)
            if m < k:
                q = m * MUX_CHANNELS + channel1
                if q >= w * h:
                    return size * size
                return (y + q // w) * size + x + q % w
            m -= k
            y += h
        x += w
    return size * size


def shift_chips(size):
    return (size * size + 7) // 8


def shift_address(place):
    """Place -> (byte, bit) in the SPI read: input D<bit> of chip <byte>.

    The 165 shifts D7 out first and SPI reads MSB first, so D<n> is bit n."""
    return place >> 3, place & 7


def shift_spare_level(size, place):
    """Level a spare input (place >= size*size) of the last 165 is tied to."""
    return 1 if (place - size * size) % 2 == 0 else 0


def led_index(size, place):
    """Place -> position in the WS2812 chain.

    LED 0 is under A1, the bottom-left corner seen from Black's side; the
    chain runs serpentine: even rows left to right, odd rows right to left.
    The frame's status pixels follow the last board LED."""
    row = place // size
    col = place % size
    if row & 1:
        col = size - 1 - col
    return row * size + col
