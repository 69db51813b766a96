// Writes a HEIF grid the way a phone stores one: the picture cut into HEVC tiles,
// the last row and column only partly inside the image (the grid's size is not a
// multiple of the tile), then the grid's transformative properties in the order a
// reader applies them (clap, irot, imir), and an EXIF orientation. The stored tiles
// are the upright picture with those transforms undone, so that a reader that
// applies them shows `SOURCE` upright; whatever a reader must not show (the area
// the clap crops away, the tiles' part outside the grid) is filled with magenta.
//   make_phone_grid SOURCE OUT.heic TILE EXIF [clap:LEFT:TOP:RIGHT:BOTTOM] [irot:QUARTERS] [imir:AXIS]
//                   [aux:gainmap|aux:depth]
// EXIF: the orientation written in the EXIF block (0: no EXIF). clap: the border
// (in pixels) the clean aperture cuts off each side. irot: quarter turns
// counter-clockwise. imir: 0, top and bottom swapped; 1, left and right swapped.
// aux: an auxiliary image of the primary (`auxl` reference, `auxC` type), a quarter
// of the grid's size and grey: Apple's HDR gain map, or a depth map.
#include <libheif/heif.h>
#include <libheif/heif_items.h>
#include <libheif/heif_properties.h>
#include <vips/vips.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUALITY 40

static void check(struct heif_error e, const char *what) {
  if (e.code) { fprintf(stderr, "%s: %s\n", what, e.message); exit(1); }
}

static VipsImage *must(int failed, VipsImage *image) {
  if (failed) vips_error_exit(NULL);
  return image;
}

static void put32(uint8_t *at, uint32_t value) {
  at[0] = value >> 24; at[1] = value >> 16; at[2] = value >> 8; at[3] = value;
}

int main(int argc, char **argv) {
  if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
  if (argc < 5) {
    fprintf(stderr, "usage: %s SOURCE OUT TILE EXIF [clap:L:T:R:B] [irot:Q] [imir:A]\n", argv[0]);
    return 2;
  }
  int tile = atoi(argv[3]), exif = atoi(argv[4]);
  int clap[4] = {0}, quarters = -1, axis = -1;
  const char *aux = NULL;
  for (int i = 5; i < argc; i++) {
    if (sscanf(argv[i], "clap:%d:%d:%d:%d", &clap[0], &clap[1], &clap[2], &clap[3]) == 4) continue;
    if (sscanf(argv[i], "irot:%d", &quarters) == 1) continue;
    if (sscanf(argv[i], "imir:%d", &axis) == 1) continue;
    if (!strcmp(argv[i], "aux:gainmap")) { aux = "urn:com:apple:photo:2020:aux:hdrgainmap"; continue; }
    if (!strcmp(argv[i], "aux:depth")) { aux = "urn:mpeg:hevc:2015:auxid:2"; continue; }
    fprintf(stderr, "unknown transform %s\n", argv[i]);
    return 2;
  }
  int has_clap = clap[0] || clap[1] || clap[2] || clap[3];
  // Undone in the reverse order: imir, then irot, then clap.
  VipsImage *picture = must(0, vips_image_new_from_file(argv[1], "access", VIPS_ACCESS_RANDOM, NULL)), *next;
  if (vips_image_get_bands(picture) > 3) {
    must(vips_extract_band(picture, &next, 0, "n", 3, NULL), next);
    picture = next;
  }
  if (axis >= 0) {
    must(vips_flip(picture, &next, axis == 1 ? VIPS_DIRECTION_HORIZONTAL : VIPS_DIRECTION_VERTICAL, NULL), next);
    picture = next;
  }
  if (quarters > 0) {
    // irot turns counter-clockwise to show it: stored turned clockwise as much.
    VipsAngle angle = quarters == 1 ? VIPS_ANGLE_D90 : quarters == 2 ? VIPS_ANGLE_D180 : VIPS_ANGLE_D270;
    must(vips_rot(picture, &next, angle, NULL), next);
    picture = next;
  }
  double magenta[] = {255, 0, 255};
  int width = vips_image_get_width(picture) + clap[0] + clap[2];
  int height = vips_image_get_height(picture) + clap[1] + clap[3];
  if (has_clap) {
    must(vips_embed(picture, &next, clap[0], clap[1], width, height, "extend", VIPS_EXTEND_BACKGROUND,
                    "background", vips_array_double_new(magenta, 3), NULL), next);
    picture = next;
  }
  int columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile;
  must(vips_embed(picture, &next, 0, 0, columns * tile, rows * tile, "extend", VIPS_EXTEND_BACKGROUND,
                  "background", vips_array_double_new(magenta, 3), NULL), next);
  picture = must(0, vips_image_copy_memory(next));

  struct heif_context *context = heif_context_alloc();
  struct heif_encoder *encoder;
  check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "encoder");
  heif_encoder_set_lossy_quality(encoder, QUALITY);
  struct heif_image_handle *grid;
  struct heif_encoding_options *options = heif_encoding_options_alloc();
  check(heif_context_add_grid_image(context, width, height, columns, rows, options, &grid), "grid");
  for (int row = 0; row < rows; row++)
    for (int column = 0; column < columns; column++) {
      VipsImage *area;
      must(vips_extract_area(picture, &area, column * tile, row * tile, tile, tile, NULL), area);
      size_t size;
      unsigned char *pixels = vips_image_write_to_memory(area, &size);
      struct heif_image *image;
      check(heif_image_create(tile, tile, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "create");
      check(heif_image_add_plane(image, heif_channel_interleaved, tile, tile, 8), "plane");
      int stride;
      uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
      for (int y = 0; y < tile; y++) memcpy(plane + y * stride, pixels + y * tile * 3, tile * 3);
      check(heif_context_add_image_tile(context, grid, column, row, image, encoder), "tile");
      heif_image_release(image);
      g_free(pixels);
      g_object_unref(area);
    }
  check(heif_context_set_primary_image(context, grid), "primary");
  heif_item_id id = heif_image_handle_get_item_id(grid);
  heif_property_id property;
  if (has_clap) {
    // Width, height, then the offsets of the aperture's centre from the image's,
    // each a fraction (numerator, denominator); the offsets in halves.
    int kept_width = width - clap[0] - clap[2], kept_height = height - clap[1] - clap[3];
    uint8_t box[32];
    uint32_t values[8] = {kept_width, 1, kept_height, 1, (uint32_t)(clap[0] - clap[2]), 2,
                          (uint32_t)(clap[1] - clap[3]), 2};
    for (int i = 0; i < 8; i++) put32(box + 4 * i, values[i]);
    check(heif_item_add_raw_property(context, id, heif_fourcc('c', 'l', 'a', 'p'), NULL, box, 32, 1, &property),
          "clap");
  }
  if (quarters > 0) {
    uint8_t value = quarters;
    check(heif_item_add_raw_property(context, id, heif_fourcc('i', 'r', 'o', 't'), NULL, &value, 1, 1, &property),
          "irot");
  }
  if (axis >= 0) {
    uint8_t value = axis;
    check(heif_item_add_raw_property(context, id, heif_fourcc('i', 'm', 'i', 'r'), NULL, &value, 1, 1, &property),
          "imir");
  }
  if (exif > 0) {
    // A big-endian TIFF block with one entry: Orientation (0x0112), SHORT, 1 value.
    uint8_t block[26] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (uint8_t)exif,
                         0, 0, 0, 0, 0, 0};
    check(heif_context_add_exif_metadata(context, grid, block, sizeof block), "exif");
  }
  if (aux) {
    // The stored picture, grey, at a quarter of its size, encoded as an image of its own
    // and then made the primary's auxiliary image.
    VipsImage *small, *grey;
    must(vips_resize(picture, &small, 0.25, NULL), small);
    must(vips_colourspace(small, &grey, VIPS_INTERPRETATION_B_W, NULL), grey);
    grey = must(0, vips_image_copy_memory(grey));
    int aux_width = vips_image_get_width(grey), aux_height = vips_image_get_height(grey);
    struct heif_image *image;
    check(heif_image_create(aux_width, aux_height, heif_colorspace_monochrome, heif_chroma_monochrome, &image),
          "create aux");
    check(heif_image_add_plane(image, heif_channel_Y, aux_width, aux_height, 8), "aux plane");
    int stride;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_Y, &stride);
    size_t size;
    unsigned char *pixels = vips_image_write_to_memory(grey, &size);
    for (int y = 0; y < aux_height; y++) memcpy(plane + y * stride, pixels + y * aux_width, aux_width);
    struct heif_image_handle *auxiliary;
    check(heif_context_encode_image(context, image, encoder, options, &auxiliary), "encode aux");
    heif_item_id aux_id = heif_image_handle_get_item_id(auxiliary);
    check(heif_context_add_item_reference(context, heif_fourcc('a', 'u', 'x', 'l'), aux_id, id), "auxl");
    // auxC: a full box (version and flags 0), the type as a C string.
    uint8_t box[64] = {0};
    size_t length = strlen(aux);
    memcpy(box + 4, aux, length);
    check(heif_item_add_raw_property(context, aux_id, heif_fourcc('a', 'u', 'x', 'C'), NULL, box, 4 + length + 1, 1,
                                     &property), "auxC");
  }
  check(heif_context_write_to_file(context, argv[2]), "write");
  printf("%s: %d x %d stored in %d x %d tiles of %d\n", argv[2], width, height, columns, rows, tile);
  return 0;
}
