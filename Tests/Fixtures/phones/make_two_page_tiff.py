"""Writes a baseline TIFF of two pages, uncompressed RGB, each from raw 8-bit RGB bytes
(`vips rawsave`): the first page is the picture a reader must show, the second a
smaller, different one (a reader that takes the smallest page shows the wrong one).
    make_two_page_tiff.py OUT.tif W1 H1 PAGE1.rgb W2 H2 PAGE2.rgb
"""
import struct
import sys


def ifd_entries(width, height, strip_offset, strip_bytes, next_ifd, bits_offset):
    short, long = 3, 4
    return [
        (256, long, 1, width),  # ImageWidth
        (257, long, 1, height),  # ImageLength
        (258, short, 3, bits_offset),  # BitsPerSample 8,8,8 (out of line)
        (259, short, 1, 1),  # Compression: none
        (262, short, 1, 2),  # PhotometricInterpretation: RGB
        (273, long, 1, strip_offset),  # StripOffsets
        (277, short, 1, 3),  # SamplesPerPixel
        (278, long, 1, height),  # RowsPerStrip
        (279, long, 1, strip_bytes),  # StripByteCounts
        (284, short, 1, 1),  # PlanarConfiguration: chunky
    ], next_ifd


def main():
    out, pages = sys.argv[1], []
    for i in range(2, len(sys.argv), 3):
        width, height = int(sys.argv[i]), int(sys.argv[i + 1])
        pixels = open(sys.argv[i + 2], "rb").read()
        assert len(pixels) == width * height * 3, sys.argv[i + 2]
        pages.append((width, height, pixels))
    data = bytearray(b"II*\x00\x00\x00\x00\x00")
    ifd_size = 2 + 10 * 12 + 4
    first_ifd = None
    previous_next = 4  # where the offset of the next IFD is written
    for width, height, pixels in pages:
        bits_offset = len(data)
        data += struct.pack("<HHH", 8, 8, 8)
        strip_offset = len(data)
        data += pixels
        if len(data) % 2:
            data += b"\x00"
        ifd_offset = len(data)
        struct.pack_into("<I", data, previous_next, ifd_offset)
        entries, _ = ifd_entries(width, height, strip_offset, len(pixels), 0, bits_offset)
        data += struct.pack("<H", len(entries))
        for tag, kind, count, value in entries:
            packed = struct.pack("<H", value) + b"\x00\x00" if kind == 3 and count == 1 else struct.pack("<I", value)
            data += struct.pack("<HHI", tag, kind, count) + packed
        previous_next = len(data)
        data += b"\x00\x00\x00\x00"
        assert len(data) - ifd_offset == ifd_size
    open(out, "wb").write(bytes(data))


main()
