#!/bin/sh
# Makes the phone-shaped fixtures of this folder from Landscape_1.jpg of ../corpus
# (see README.md): HEIF grids with each transform a phone writes, and the still
# images of other shapes the thumbnail maker met wrong. Run from this folder; the
# outputs are committed (HEVC encodes are not bit-exact across x265 builds).
# Needs: libheif-examples libheif-plugin-x265 libheif-plugin-aomenc (bookworm-backports),
# libvips-tools, libheif-dev libvips-dev pkg-config and a C compiler.
set -eu
here=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source=../corpus/Landscape_1.jpg
cc -O1 -Wall -o "$work/make_phone_grid" make_phone_grid.c $(pkg-config --cflags --libs libheif vips)
grid="$work/make_phone_grid"

# Upright pictures: a landscape and a portrait one (a centre crop).
vips thumbnail "$source" "$work/landscape.png" 714 --height 536 --crop centre
vips thumbnail "$source" "$work/landscape-large.png" 1008 --height 756 --crop centre
vips thumbnail "$source" "$work/portrait.png" 536 --height 714 --crop centre
vips thumbnail "$source" "$work/portrait-large.png" 750 --height 1000 --crop centre

# iPhone 15 Pro, 1/8 scale: 5712 x 4284 stored landscape in 12 x 9 tiles of 512 (the
# last column and row partly outside), irot 270 and EXIF orientation 6 together.
"$grid" "$work/portrait.png" iphone15pro-grid-irot270-exif6.heic 64 6 irot:3
# The same with an HDR gain map (Apple's auxiliary image), and a portrait-mode depth map.
"$grid" "$work/portrait.png" iphone15pro-grid-gainmap.heic 64 6 irot:3 aux:gainmap
"$grid" "$work/portrait.png" iphone15pro-grid-depth.heic 64 6 irot:3 aux:depth
# The same at 1/2 scale (2856 x 2142 in 12 x 9 tiles of 256): large enough that the
# 1024 px thumbnail, which `save` makes first, is decoded tile by tile too.
vips thumbnail "$source" "$work/portrait-half.png" 2142 --height 2856 --crop centre --size both
"$grid" "$work/portrait-half.png" iphone15pro-half-grid-irot270-exif6.heic 256 6 irot:3
# iPhone XR, 1/4 scale: 4032 x 3024 in 8 x 6 tiles of 512, irot 270 + EXIF 6.
"$grid" "$work/portrait-large.png" iphonexr-grid-irot270-exif6.heic 128 6 irot:3
# Samsung One UI 6, 1/4 scale: the pixels stored already turned (3000 x 4000), orientation 1.
"$grid" "$work/portrait-large.png" samsung-grid-stored-turned.heic 128 1
# A clean aperture off the centre, alone and under each turn and mirror.
"$grid" "$work/landscape-large.png" grid-clap.heic 128 1 clap:10:6:22:14
"$grid" "$work/portrait-large.png" grid-clap-irot90-exif8.heic 128 8 clap:12:4:20:28 irot:1
"$grid" "$work/landscape.png" grid-irot180-exif3.heic 64 3 irot:2
"$grid" "$work/landscape.png" grid-imir0.heic 64 0 imir:0
"$grid" "$work/landscape.png" grid-imir1.heic 64 0 imir:1
"$grid" "$work/portrait.png" grid-irot270-imir0.heic 64 0 irot:3 imir:0
"$grid" "$work/portrait.png" grid-irot90-imir1.heic 64 0 irot:1 imir:1
"$grid" "$work/landscape-large.png" grid-clap-irot270-imir1.heic 128 0 clap:8:30:16:2 irot:3 imir:1

# An 8-bit AVIF of odd width with 4:2:2 chroma (Immich's 8bit-sRGB.avif is one):
# the chroma is half as wide as the luma but as tall.
vips thumbnail "$source" "$work/wide.png" 1617 --height 1080 --crop centre
heif-enc -A -p chroma=422 -q 30 -o avif-422-1617x1080.avif "$work/wide.png"
# 10 bits a sample, as HDR phones and cameras write them (from a 16-bit PNG).
vips thumbnail "$source" "$work/small.png" 600 --height 400 --crop centre
vips linear "$work/small.png" "$work/small16.v" 257 0 --uchar=false
vips cast "$work/small16.v" "$work/small16.png" ushort
vips copy "$work/small16.png" "$work/small16-rgb16.png[bitdepth=16]"
heif-enc -b 10 -q 40 -o heic-10bit.heic "$work/small16-rgb16.png"
heif-enc -A -b 10 -q 40 -o avif-10bit.avif "$work/small16-rgb16.png"
# A HEIC whose EXIF names another size (6000 x 4000) than the coded one (300 x 200).
vips thumbnail "$source" "$work/tiny.png" 300 --height 200 --crop centre
heif-enc -q 40 -o heic-exif-size-differs.heic "$work/tiny.png"
exiftool -q -overwrite_original -ExifImageWidth=6000 -ExifImageHeight=4000 heic-exif-size-differs.heic
# TIFFs: two pages, the second smaller and another picture; a JPEG-in-TIFF whose
# SubIFDs hold its 32 and 16 px reductions.
vips thumbnail "$source" "$work/page1.v" 96 --height 64 --crop centre
vips rawsave "$work/page1.v" "$work/page1.rgb"
vips thumbnail ../corpus/cmyk_go_video-001.jpeg "$work/page2.v" 48 --height 32 --crop centre
vips colourspace "$work/page2.v" "$work/page2-srgb.v" srgb
vips rawsave "$work/page2-srgb.v" "$work/page2.rgb"
python3 make_two_page_tiff.py two-pages.tif 96 64 "$work/page1.rgb" 48 32 "$work/page2.rgb"
vips thumbnail "$source" "$work/square.png" 64 --height 64 --crop centre
vips tiffsave "$work/square.png" jpeg-in-tiff-subifds.tif --compression jpeg --subifd --pyramid --tile \
	--tile-width 16 --tile-height 16 --strip
# A complete PNG whose pixel data is no zlib stream.
vips thumbnail "$source" "$work/plain.png[strip]" 120 --height 80 --crop centre
python3 make_png_not_zlib.py "$work/plain.png" png-idat-not-zlib.png
# An Ultra HDR JPEG (Pixel): the picture, then its gain map (a grey JPEG) after its end.
vips thumbnail "$source" "$work/primary.jpg[Q=80,strip]" 480
vips thumbnail "$source" "$work/gain.v" 120
vips colourspace "$work/gain.v" "$work/gain-grey.v" b-w
vips jpegsave "$work/gain-grey.v" "$work/gain.jpg" --Q 70 --strip
python3 make_ultra_hdr.py "$work/primary.jpg" "$work/gain.jpg" ultrahdr-gainmap.jpg

cd "$here"
echo "made: $(ls *.heic *.avif *.tif *.png *.jpg | tr '\n' ' ')"
