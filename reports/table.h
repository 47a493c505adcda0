/* reports/table.h — the table renderer moved to the table/ module (table/table.h) so that isa/ does
 * not include reports/. This forwarding header keeps code written before the move compiling;
 * include "table/table.h" in new code. */
#ifndef LANELAB_REPORTS_TABLE_FWD_H
#define LANELAB_REPORTS_TABLE_FWD_H
#include "table/table.h"
#endif
