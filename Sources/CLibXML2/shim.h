#ifndef CLARISSA_CLIBXML2_SHIM_H
#define CLARISSA_CLIBXML2_SHIM_H

/* Debian builds libxml2 with ICU, so <libxml/encoding.h> includes ICU's <unicode/ucnv.h>.
 * Swift's Foundation carries its own, newer ICU (_FoundationICU), and a module that sees both
 * fails to build ("'UErrorCode' has different definitions in different modules"). clarissa
 * never touches libxml2's ICU converter structs, so their ICU part is hidden here. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/entities.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* xmlFree is a global function pointer, which Swift 6 treats as shared mutable state. */
static inline void clarissa_xml_free(void *pointer) { xmlFree(pointer); }

/* XPath errors go to the context's lastError when it has a handler; without one libxml2 prints
 * them on stderr. This handler keeps them quiet; the caller reads lastError. */
static void clarissa_xml_quiet_error(void *data, xmlErrorPtr error) { (void)data; (void)error; }
static inline void clarissa_xpath_quiet(xmlXPathContextPtr context) {
  context->error = clarissa_xml_quiet_error;
}

#endif
