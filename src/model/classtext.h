/* classtext.h - the Modelica text of the class tables (parameter bindings
 * and start values, conditions of connectors), parsed once and evaluated
 * for the compiler.
 *
 * Why in src/model: the text becomes syntax trees and is evaluated by the
 * model's evaluator, and neither may reach the stages after the model
 * (docs/architecture.md, "Layers"). So the compiler asks with values and
 * gets values: the parameters a text names are read through a callback,
 * by their index in the class table, and the trees never leave
 * classtext.c. The class tables themselves (src/components) hold only the
 * text. */
#ifndef FL_CLASSTEXT_H
#define FL_CLASSTEXT_H

#include "components/component.h"

/* The value of parameter k of the instance whose text is evaluated: fill
 * *out (the caller frees it) and return 0, or return -1 after reporting an
 * error (a parameter that depends on itself). */
typedef int (*fl_class_par_fn)(void *ctx, int k, fl_value *out);

/* The binding of parameter k in the class table (start = 0) or its start
 * value (start = 1), evaluated with par for the parameters it names: 1
 * with *out set, 0 when the table has no such text (classes made from user
 * equations have none), -1 after an error reported to d. *out is V_NONE
 * unless 1 is returned. */
int fl_class_param_text(const fl_class *c, int k, int start, fl_class_par_fn par, void *ctx, fl_value *out,
                        fl_diag *d);

/* The condition of port k (its existence), the same way; 0 when the port
 * has none (it always exists). */
int fl_class_port_cond(const fl_class *c, int k, fl_class_par_fn par, void *ctx, fl_value *out, fl_diag *d);

/* Free the parsed class texts (parsed again on the next use).
 * For the FMU runtime (src/fmi/inst.c), whose copy of the library is unmapped
 * when the importer unloads the FMU: what it allocated for the whole process
 * would be lost with every unload. No simulation may be alive. */
void fl_class_texts_shutdown(void);

#endif
