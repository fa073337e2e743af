/* render.h — ssdrev's renderer: Cairo charts and Markdown / HTML / PDF
 * reviews from templates (docs/templates.md). Reads analyzed run archives
 * (analysis.json) through analyze.h's types. Library rules as in bench.h. */
#ifndef SSDREV_RENDER_H
#define SSDREV_RENDER_H

#include "analyze/analyze.h"

#endif
