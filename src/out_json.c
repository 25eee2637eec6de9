/* out_json.c - being written */
typedef int mp__placeholder_out_json;
