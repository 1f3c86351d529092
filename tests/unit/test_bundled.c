/* test_bundled.c - the Modelica classes flange carries as text
 * (src/model/msl/NAME.mo): every file parses without a message, and the
 * classes a user names by their MSL path are found by it. */
#include "check.h"
#include "flange.h"
#include "model/bundled.h"

static void count_class(const char *path, const fl_class_ast *c, void *user)
{
    int *n = user;
    (*n)++;
    /* every class listed is found again by its path */
    CHECK(fl_bundled_class(path) == c);
}

int main(void)
{
    fl_diag *d = fl_diag_new();
    int n = 0;
    int bad = fl_bundled_each(count_class, &n, d);
    CHECK(bad == 0);
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    CHECK(fl_diag_count(d) == 0);
    CHECK(n >= 22); /* the interfaces and adaptors alone are 22 */
    CHECK(fl_bundled_class("Modelica.Mechanics.Translational.Interfaces.PartialCompliant") != NULL);
    CHECK(fl_bundled_class("Modelica.Blocks.Interfaces.SISO") != NULL);
    CHECK(fl_bundled_class("Modelica.Blocks.Interfaces.NoSuchThing") == NULL);
    CHECK(fl_bundled_class("NoDot") == NULL);
    fl_diag_free(d);
    return check_done();
}
