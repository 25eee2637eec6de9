/* cell.c - the names of a cell's statuses; see results/cell.h. */
#include "results/cell.h"

const char *mp_cell_status_name(mp_cell_status s)
{
    switch (s) {
    case MP_CELL_OK: return "ok";
    case MP_CELL_UNSUPPORTED: return "unsupported";
    case MP_CELL_ERROR: return "error";
    default: return "not run";
    }
}
