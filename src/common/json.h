/* json.h - lenient getters for cJSON objects: a member of the wrong type
 * reads as the caller's "missing" value.  Readers that must refuse bad
 * input (report/'s loader) check types themselves. */
#ifndef MP_JSON_H
#define MP_JSON_H

#include <cjson/cJSON.h>

/* The number at o.key, or missing when absent or not a number. */
double mp_json_num(const cJSON *o, const char *key, double missing);
/* The string at o.key, or missing when absent or not a string. */
const char *mp_json_str(const cJSON *o, const char *key, const char *missing);

#endif
