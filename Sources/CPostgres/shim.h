#ifndef CLARISSA_CPOSTGRES_SHIM_H
#define CLARISSA_CPOSTGRES_SHIM_H

/* libpq, PostgreSQL's own client library (Debian libpq-dev, `pkg-config libpq`). */
#include <libpq-fe.h>

#endif
