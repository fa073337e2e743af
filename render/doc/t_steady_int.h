/* render/doc/t_steady_int.h — private to render/doc/: the table kinds of the
 * steady-state and consistency analyses (render/doc/t_steady.c), rows of
 * tables.c's table. */
#ifndef SSDREV_T_STEADY_INT_H
#define SSDREV_T_STEADY_INT_H

#include "render/render_int.h"

int render_table_steady(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                        struct ssdrev_err *err);
int render_table_consistency(const struct render_run *r, const struct render_args *a, struct render_buf *b,
                             size_t nsel, struct ssdrev_err *err);

#endif
