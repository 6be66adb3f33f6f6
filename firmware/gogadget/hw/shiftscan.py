"""Occupancy sensors: one reed switch (or open-drain digital Hall sensor)
per place on a chain of 74HC165 parallel-in shift registers, read over SPI.

A scan pulses SH/LD low (all chips latch their inputs at once, so a scan is
a single instant), then clocks ceil(n/8) + 1 bytes in.  The last chip's SER
is tied to GND, so the extra byte must read 0x00, and its spare inputs are
tied to a known pattern (pins.shift_spare_level): anything else means the
chain is broken, stuck or a chip is missing, and every place is reported
S_FAULT rather than inventing or hiding stones.
"""
from gogadget.compat import const
from gogadget.hw import pins
from gogadget.scan import S_EMPTY, S_STONE, S_FAULT, SENSOR_OCCUPANCY

_TAIL = const(0x00)


class ShiftScanner:
    kind = SENSOR_OCCUPANCY

    def __init__(self, size, spi, load_pin, active_low=pins.SHIFT_ACTIVE_LOW):
        self.size = size
        self.spi = spi
        self.load = load_pin
        self.active_low = active_low
        self.chips = pins.shift_chips(size)
        self.raw = bytearray(self.chips + 1)
        self.fault = bytearray((size * size + 7) >> 3)  # a bit a place: left out (self-test)
        self.chain_ok = True
        # The last chip's spare inputs: which bits, and what they must read.
        n = size * size
        self._spare_mask = 0
        self._spare_want = 0
        for p in range(n, self.chips * 8):
            self._spare_mask |= 1 << (p & 7)
            self._spare_want |= pins.shift_spare_level(size, p) << (p & 7)
        load_pin.value(1)

    def read_raw(self):
        self.load.value(0)
        self.load.value(1)
        self.spi.readinto(self.raw, 0)
        raw = self.raw
        self.chain_ok = (raw[self.chips] == _TAIL
                         and raw[self.chips - 1] & self._spare_mask == self._spare_want)
        return self.chain_ok

    def read(self, scan):
        ok = self.read_raw()
        raw = self.raw
        fault = self.fault
        on = 0 if self.active_low else 1
        for p in range(len(scan)):
            if not ok or (fault[p >> 3] >> (p & 7)) & 1:
                scan[p] = S_FAULT
            elif (raw[p >> 3] >> (p & 7)) & 1 == on:
                scan[p] = S_STONE
            else:
                scan[p] = S_EMPTY
