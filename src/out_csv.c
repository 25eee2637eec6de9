/* out_csv.c - being written */
typedef int mp__placeholder_out_csv;
