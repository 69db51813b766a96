// Writes a HEIF grid whose stored tiles are a picture turned (and mirrored), with
// the irot/imir properties that turn it upright again: the fixture for
// HeifGridDecoder's orientation test. Run once; the output is committed.
//   make_turned_grid SOURCE OUT.heic TILE ORIENTATION
// ORIENTATION: 6, shown turned 90° clockwise; 8, turned 270°; 5 and 7, as 6 and 8
// with the picture stored mirrored left to right as well.
#include <libheif/heif.h>
#include <libheif/heif_properties.h>
#include <vips/vips.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUALITY 40

static void check(struct heif_error e, const char *what) {
  if (e.code) { fprintf(stderr, "%s: %s\n", what, e.message); exit(1); }
}

int main(int argc, char **argv) {
  if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
  if (argc != 5) { fprintf(stderr, "usage: %s SOURCE OUT TILE ORIENTATION\n", argv[0]); return 2; }
  int tile = atoi(argv[3]), orientation = atoi(argv[4]);
  // The upright picture, then turned into how a sideways camera stores it: the
  // inverse of what the orientation tells a viewer to do.
  VipsImage *upright = vips_image_new_from_file(argv[1], NULL), *stored = NULL, *t = NULL;
  if (!upright) vips_error_exit(NULL);
  switch (orientation) {
  case 6: vips_rot(upright, &stored, VIPS_ANGLE_D270, NULL); break;  // shown turned 90° cw
  case 8: vips_rot(upright, &stored, VIPS_ANGLE_D90, NULL); break;   // shown turned 270° cw
  case 5: vips_flip(upright, &t, VIPS_DIRECTION_HORIZONTAL, NULL); vips_rot(t, &stored, VIPS_ANGLE_D270, NULL); break;
  case 7: vips_flip(upright, &t, VIPS_DIRECTION_HORIZONTAL, NULL); vips_rot(t, &stored, VIPS_ANGLE_D90, NULL); break;
  default: fprintf(stderr, "orientation 5 to 8\n"); return 2;
  }
  int width = vips_image_get_width(stored), height = vips_image_get_height(stored);
  int columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile;
  if (width % tile || height % tile) { fprintf(stderr, "the picture must be whole tiles\n"); return 2; }
  struct heif_image **tiles = calloc(rows * columns, sizeof *tiles);
  for (int row = 0; row < rows; row++)
    for (int column = 0; column < columns; column++) {
      VipsImage *area;
      if (vips_extract_area(stored, &area, column * tile, row * tile, tile, tile, NULL)) vips_error_exit(NULL);
      size_t size;
      unsigned char *pixels = vips_image_write_to_memory(area, &size);
      struct heif_image **image = &tiles[row * columns + column];
      check(heif_image_create(tile, tile, heif_colorspace_RGB, heif_chroma_interleaved_RGB, image), "create");
      check(heif_image_add_plane(*image, heif_channel_interleaved, tile, tile, 8), "plane");
      int stride;
      uint8_t *plane = heif_image_get_plane(*image, heif_channel_interleaved, &stride);
      for (int y = 0; y < tile; y++) memcpy(plane + y * stride, pixels + y * tile * 3, tile * 3);
      g_free(pixels);
      g_object_unref(area);
    }
  struct heif_context *context = heif_context_alloc();
  struct heif_encoder *encoder;
  check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "encoder");
  heif_encoder_set_lossy_quality(encoder, QUALITY);
  struct heif_encoding_options *options = heif_encoding_options_alloc();
  struct heif_image_handle *grid;
  // heif.h (1.19.7) names the third and fourth parameters rows, columns; heif.cc
  // takes them as columns, rows (rows first writes a grid of the wrong shape).
  check(heif_context_encode_grid(context, tiles, columns, rows, encoder, options, &grid), "encode grid");
  check(heif_context_set_primary_image(context, grid), "primary");
  // The grid's own irot (turns counter-clockwise, in quarters) and imir (axis 1,
  // as libheif reads it: left and right swapped), in the order a reader applies
  // them. libheif's image_orientation encoding option writes neither for a grid
  // (tried: the grid came out as stored).
  heif_item_id id = heif_image_handle_get_item_id(grid);
  uint8_t quarters = (orientation == 6 || orientation == 5) ? 3 : 1, axis = 1;
  heif_property_id property;
  check(heif_item_add_raw_property(context, id, heif_fourcc('i', 'r', 'o', 't'), NULL, &quarters, 1, 1, &property), "irot");
  if (orientation == 5 || orientation == 7)
    check(heif_item_add_raw_property(context, id, heif_fourcc('i', 'm', 'i', 'r'), NULL, &axis, 1, 1, &property), "imir");
  check(heif_context_write_to_file(context, argv[2]), "write");
  printf("%s: %d x %d stored in %d x %d tiles of %d, orientation %d\n", argv[2], width, height, columns, rows, tile, orientation);
  return 0;
}
