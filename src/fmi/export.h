/* export.h - the pieces of the FMU exporter (export.c): Modelica units in SI
 * base units (units.c) and the modelDescription.xml writer (md.c).
 * Internal. */
#ifndef FL_FMI_EXPORT_H
#define FL_FMI_EXPORT_H

#include "fmi/fmu.h"

/* A unit in SI base units: value in base units = factor * value + offset;
 * exp[] are the exponents of kg, m, s, A, K, mol, cd, rad (the order of
 * FMI's <BaseUnit> attributes). */
enum { FL_U_KG, FL_U_M, FL_U_S, FL_U_A, FL_U_K, FL_U_MOL, FL_U_CD, FL_U_RAD, FL_U_N };
typedef struct fl_unit_si {
    int exp[FL_U_N];
    double factor, offset;
} fl_unit_si;

/* Parse a Modelica unit string ("N.m", "m/s2", "N.s/m", "1/s", "kg.m2",
 * "mm", "rev/min", "degC"): 0, or -1 when it is not one (then *u is
 * unspecified). "" and "1" are dimensionless. */
int fl_unit_parse(const char *text, fl_unit_si *u);

/* What md.c needs besides the table. */
typedef struct fl_md_info {
    int fmi;                  /* 2 or 3 */
    const char *model_name;   /* the user's model */
    const char *identifier;   /* modelIdentifier */
    const char *description;  /* "" if none */
    const char *token;        /* guid / instantiationToken */
    const char *date;         /* generationDateAndTime (UTC, ISO 8601), NULL: none */
    fl_experiment exp;
} fl_md_info;

/* Text escaped for XML (and HTML) content and attribute values: & < > " '
 * as entities, line ends and tabs as character references, other control
 * characters as blanks. */
struct fl_buf;
void fl_xml_escape(struct fl_buf *b, const char *s);

/* modelDescription.xml (malloc'd). */
char *fl_fmu_model_description(const fl_md_info *info, const fl_fmu_vars *t);

#endif
