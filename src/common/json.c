/* json.c - lenient cJSON getters.  See json.h. */
#include "common/json.h"

double mp_json_num(const cJSON *o, const char *key, double missing)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(j) ? j->valuedouble : missing;
}

const char *mp_json_str(const cJSON *o, const char *key, const char *missing)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(j) ? j->valuestring : missing;
}
