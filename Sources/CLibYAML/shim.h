#ifndef CLARISSA_CLIBYAML_SHIM_H
#define CLARISSA_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
