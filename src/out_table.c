/* out_table.c - being written */
typedef int mp__placeholder_out_table;
