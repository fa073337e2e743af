/* text.c — an imported text file as UTF-8: what other tools and editors
 * wrote it as (import_int.h import_text_utf8). */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include "import/import_int.h"

/* Leading UTF-8 BOMs dropped (Notepad writes one; a file saved twice over,
 * or a UTF-16 file's converted, can carry two). */
static int strip_bom(char *text, size_t *len) {
  size_t k = 0;
  while (*len - k >= 3 && !memcmp(text + k, "\xEF\xBB\xBF", 3)) k += 3;
  if (k) memmove(text, text + k, *len - k + 1), *len -= k; /* with its NUL */
  return 0;
}

int import_text_utf8(char **text, size_t *len, const char *name, struct ssdrev_err *err) {
  const unsigned char *b = (const unsigned char *)*text;
  size_t n = *len;
  const char *from = NULL;
  if (n >= 2 && b[0] == 0xFF && b[1] == 0xFE) from = "UTF-16LE";
  else if (n >= 2 && b[0] == 0xFE && b[1] == 0xFF) from = "UTF-16BE";
  else if (n >= 4 && b[0] && !b[1] && b[2] && !b[3]) from = "UTF-16LE";
  else if (n >= 4 && !b[0] && b[1] && !b[2] && b[3]) from = "UTF-16BE";
  if (!from) return strip_bom(*text, len);
  size_t skip = (b[0] == 0xFF || b[0] == 0xFE) ? 2 : 0;
  if ((n - skip) % 2) return ssdrev_fail(err, -EINVAL, "'%s' is UTF-16 text of an odd length (%zu bytes): cut short?", name, n);
  iconv_t cd = iconv_open("UTF-8", from);
  if (cd == (iconv_t)-1) return ssdrev_fail(err, -EINVAL, "'%s' is %s text and this system cannot convert it", name, from);
  size_t cap = (n - skip) / 2 * 3 + 1; /* a UTF-16 unit is at most 3 UTF-8 bytes; pairs 4 for 2 units */
  char *out = malloc(cap), *op = out, *ip = *text + skip;
  size_t il = n - skip, ol = cap - 1;
  if (!out) {
    iconv_close(cd);
    return ssdrev_fail(err, -ENOMEM, "out of memory reading '%s'", name);
  }
  size_t r = iconv(cd, &ip, &il, &op, &ol);
  iconv_close(cd);
  if (r == (size_t)-1 || il) {
    size_t at = (size_t)(ip - *text);
    free(out);
    return ssdrev_fail(err, -EINVAL, "'%s' is %s text with an invalid sequence at byte %zu", name, from, at);
  }
  *op = 0;
  free(*text);
  *text = out;
  *len = (size_t)(op - out);
  return strip_bom(*text, len);
}
