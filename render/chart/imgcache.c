/* imgcache.c — the pixels of the chart PNGs a report just drew, kept in
 * memory (8-bit RGB) so the PDF writer embeds them directly instead of
 * decoding each PNG file again (inflate + unfilter was ~40% of a report's
 * CPU time). The chart code puts, the PDF writer takes; a mutex keeps it safe
 * for callers on any thread. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"

struct rimg {
  char *path;
  int w, h;
  unsigned char *rgb; /* w * h * 3 bytes, rows top to bottom */
  struct rimg *next;
};

struct render_imgcache {
  pthread_mutex_t lock;
  struct rimg *head;
  struct render_pngq *writer; /* writes the PNG files, may be NULL */
};

struct render_imgcache *render_imgcache_new(void) {
  struct render_imgcache *c = calloc(1, sizeof *c);
  if (c && pthread_mutex_init(&c->lock, NULL)) {
    free(c);
    return NULL;
  }
  return c;
}

void render_imgcache_free(struct render_imgcache *c) {
  if (!c) return;
  for (struct rimg *i = c->head, *next; i; i = next) {
    next = i->next;
    free(i->path);
    free(i->rgb);
    free(i);
  }
  pthread_mutex_destroy(&c->lock);
  free(c);
}

int render_imgcache_put(struct render_imgcache *c, const char *path, cairo_surface_t *s) {
  cairo_surface_flush(s);
  const unsigned char *src = cairo_image_surface_get_data(s);
  int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
  int stride = cairo_image_surface_get_stride(s);
  /* the charts are RGB24 (opaque, painted white first): no alpha to undo */
  if (!src || w <= 0 || h <= 0 || cairo_image_surface_get_format(s) != CAIRO_FORMAT_RGB24) return -EINVAL;
  struct rimg *i = calloc(1, sizeof *i);
  if (!i) return -ENOMEM;
  i->path = strdup(path);
  i->rgb = malloc((size_t)w * (size_t)h * 3);
  if (!i->path || !i->rgb) {
    free(i->path);
    free(i->rgb);
    free(i);
    return -ENOMEM;
  }
  i->w = w;
  i->h = h;
  unsigned char *d = i->rgb;
  for (int y = 0; y < h; y++) {
    const uint32_t *row = (const uint32_t *)(const void *)(src + (size_t)y * (size_t)stride);
    for (int x = 0; x < w; x++) {
      uint32_t px = row[x]; /* native-endian 0xXXRRGGBB */
      *d++ = (unsigned char)(px >> 16);
      *d++ = (unsigned char)(px >> 8);
      *d++ = (unsigned char)px;
    }
  }
  pthread_mutex_lock(&c->lock);
  /* a newer drawing of the same path replaces the older one */
  for (struct rimg **pp = &c->head; *pp; pp = &(*pp)->next)
    if (!strcmp((*pp)->path, path)) {
      struct rimg *old = *pp;
      *pp = old->next;
      free(old->path);
      free(old->rgb);
      free(old);
      break;
    }
  i->next = c->head;
  c->head = i;
  pthread_mutex_unlock(&c->lock);
  return 0;
}

void render_imgcache_set_writer(struct render_imgcache *c, struct render_pngq *q) {
  if (c) c->writer = q;
}

void render_imgcache_settle(struct render_imgcache *c) {
  if (c) render_pngq_drain(c->writer);
}

int render_imgcache_size(struct render_imgcache *c, const char *path, int *w, int *h) {
  if (!c) return 0;
  int found = 0;
  pthread_mutex_lock(&c->lock);
  for (struct rimg *i = c->head; i && !found; i = i->next)
    if (!strcmp(i->path, path)) *w = i->w, *h = i->h, found = 1;
  pthread_mutex_unlock(&c->lock);
  return found;
}

unsigned char *render_imgcache_take(struct render_imgcache *c, const char *path, int *w, int *h) {
  if (!c) return NULL;
  unsigned char *rgb = NULL;
  pthread_mutex_lock(&c->lock);
  for (struct rimg **pp = &c->head; *pp; pp = &(*pp)->next)
    if (!strcmp((*pp)->path, path)) {
      struct rimg *i = *pp;
      *pp = i->next;
      rgb = i->rgb;
      *w = i->w;
      *h = i->h;
      free(i->path);
      free(i);
      break;
    }
  pthread_mutex_unlock(&c->lock);
  return rgb;
}
