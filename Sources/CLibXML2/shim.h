#ifndef CLARISSA_CLIBXML2_SHIM_H
#define CLARISSA_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/entities.h>

/* xmlFree is a global function pointer, which Swift 6 treats as shared mutable state. */
static inline void clarissa_xml_free(void *pointer) { xmlFree(pointer); }
#endif
