// hip/lanelab_hip_pch.h — what `lanelab hipcc` precompiles for a source whose first include is
// <hip/hip_runtime.h> (isa/pch.c, docs/hip-subset.md "Precompiled headers"): the prelude it
// -includes anyway, then hip_runtime.h, in the order the plain compile reads them. Not for
// including by hand.
#include "hip/lanelab_hip_prelude.h"
#include <hip/hip_runtime.h>
