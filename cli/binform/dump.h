/* A parsed document as JSON: keys in schema order, enums by name, derived values and
 * resolved strings beside the raw values. */
#ifndef BINFORM_DUMP_H
#define BINFORM_DUMP_H

#include "bf_meta.h"
#include "json.h"

void dump_object(json *j, const bf_type_desc *type, const void *obj);

#endif
