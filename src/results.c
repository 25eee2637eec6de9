/* results.c - being written */
typedef int mp__placeholder_results;
