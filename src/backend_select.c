/* backend_select.c - being written */
typedef int mp__placeholder_backend_select;
