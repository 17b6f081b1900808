// libxml2's SAX2 interface, for the OAI-PMH reader (VitrineOAIPMH), and its table of HTML entities, for a
// museum's HTML reduced to text (VitrineSources/AdapterKit/HTMLText.swift).
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with the ICU Foundation bundles. Nothing here uses the
// converters that need them (only pointers to encoding handlers are in the structures used).
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
