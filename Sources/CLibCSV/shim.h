#include <stddef.h>
#include <csv.h>
