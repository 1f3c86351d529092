/* scope.h - what the two files of the instantiation stage share:
 * instantiate.c (scopes, parameters, components, connections) and
 * flatten.c (variables and equations of user classes). Internal to
 * src/model. */
#ifndef FL_SCOPE_H
#define FL_SCOPE_H

#include "eval.h"
#include "instantiate.h"
#include "model.h"
#include "parse/ast.h"

typedef struct env env;

/* A modification waiting to be applied to an element: name is what is left
 * of mod->name after the parts consumed on the way down. */
typedef struct pmod {
    const fl_mod *mod;
    const char *name;
    env *where;              /* instance scope its value is evaluated in */
    const fl_class_ast *lex; /* class it is written in (imports, packages) */
    int elem, nelem;         /* for element elem of an array of nelem components (nelem 0: none):
                                an array value without 'each' gives its element elem */
} pmod;
typedef FL_VEC(pmod) pmod_vec;

typedef enum ptype { PT_REAL, PT_INT, PT_BOOL, PT_STRING, PT_ENUM } ptype;

typedef struct pslot {
    const char *name;
    const fl_decl *decl;
    const fl_class_ast *lex;
    pmod over; /* modifier from outside (mod == NULL: none) */
    ptype type;
    const char *enum_type;
    int state; /* 0 pending, 1 evaluating, 2 done, 3 failed */
    int scanned; /* its pending dependencies were put on the evaluation stack */
    fl_value val;
} pslot;

/* Virtual connection graph node: a library port or a connector of a
 * composite model. */
typedef struct vnode {
    int parent;
    int is_flange; /* 0: a signal; a flange: its domain (FL_DOM_TRANS, FL_DOM_ROT) */
    unsigned char vtype; /* a signal's value type (FL_VT_*: library ports are Real) */
    int is_leaf;
    fl_pref leaf;
    fl_loc loc;
} vnode;

typedef struct ictx {
    fl_model *m;
    fl_file_ast *file;
    struct fl_libs *libs; /* --lib and MODELICAPATH (library.c), NULL when there are none */
    fl_diag *d;
    int failed;
    FL_VEC(vnode) nodes;
    fl_map node_index; /* connector path of a composite model -> node */
    struct {               /* library port (instance, port, element) -> node */
        uint64_t *keys;    /* key + 1; 0 marks a free slot */
        int *vals;
        size_t n, cap;
    } leaves;
    char *resolved;    /* buffer for resolve_name results */
    int depth;
    const fl_class_ast *inside[32]; /* the composite classes being instantiated, outermost first */
    /* Library classes of declaration types already resolved, by lexical
     * class and type name (names are interned, so pointers identify them):
     * a big model declares the same few types over and over. */
    struct tcache {
        const fl_class_ast *lex;
        const char *type;
        const fl_class *cls;
    } *tc;
    size_t ntc, captc;
    struct fl_flat *flat; /* variables and equations of user classes (flatten.c) */
    /* functions of the model's files (symbolic/func.h), registered on first use */
    struct fl_ufuncs *funcs;
    char *fpath; /* buffer for the scope's find_class */
} ictx;


struct fl_flat; /* flatten.c */

/* Values of for-loop iterators in scope (innermost first): names resolve
 * to them before parameters. */
typedef struct iterb {
    const char *name;
    double value;
    const struct iterb *next;
} iterb;

struct env {
    ictx *ic;
    const fl_class_ast *cls;
    char *prefix; /* instance path prefix including the trailing '.', "" at top */
    FL_VEC(pslot) params;
    fl_map pindex;
    fl_map elems;    /* element name -> kind (1 library component, 2 composite, 3 connector, 4 disabled,
                      * 5 failed) in the low 3 bits; a library component's instance + 1 above them */
    const fl_class_ast *lex_for_eval; /* lexical class of the expression being evaluated */
    int stacking; /* eval_param's loop runs: a pending parameter is not evaluated by recursion */
    int need;     /* the pending parameter that stopped an evaluation, or -1 */
    env *up;      /* the enclosing instance's scope (NULL at the top) */
    int uinst;    /* its user instance in the user part (flatten.c), -1 */
    const iterb *iters; /* for-loop iterators of the equations being flattened */
    void *pending; /* flatten.c: declaration bindings waiting for the equations */
    fl_loc decl_loc; /* where the instance is declared (the top: its class) */
    struct iparts *ip;  /* its declarations while its elements are made (a parameter's size(v, 1)) */
    int has_components; /* components were declared in it */
    int nflanges;       /* flange connectors declared in it */
};

/* Kinds of elements in env.elems (the low 3 bits). */
enum { EL_LIB = 1, EL_COMPOSITE, EL_CONNECTOR, EL_DISABLED, EL_FAILED, EL_ARRAY, EL_VAR };


/* Result of a lookup: a user class of the file, or a library path. */
typedef struct resolved {
    const fl_class_ast *user; /* non-NULL: user class */
    char *path;               /* library full path (owned), when user == NULL */
} resolved;

/* Resolve a dotted name as written inside lexical class `lex`. */
int resolve_name(const ictx *ic, const fl_class_ast *lex, const char *written, resolved *out);
/* The function the call `written` (in lex) names, registered in ic->funcs:
 * its id; -2 when the name is no function of the model's files (a built-in
 * or unknown name); -1 after reporting its errors. */
int user_function(ictx *ic, const fl_class_ast *lex, const char *written, fl_loc loc);
/* Where a message about text of flange's own Modelica classes (bundled.c:
 * an assert, a parameter without a value) is reported: at the declaration
 * in the user's model of the outermost instance of such a class
 * (`Limiter lim(uMax = 1, uMin = 2);`), not in text the user never wrote.
 * Other locations are returned as they are. */
fl_loc fl_scope_user_loc(const env *e, fl_loc loc);
/* The length an unsized dimension of a variable (input Boolean reset[:] =
 * {false}) takes from the array {...} it is given (mods as for
 * fl_flat_declare_var: the outermost value wins, else the declaration's);
 * -1 when it is given no array constructor. */
int fl_unsized_length(const fl_decl *dc, const pmod_vec *mods);
/* Evaluate a parameter expression written in lex, in scope e. */
int eval_in(env *e, const fl_class_ast *lex, const fl_expr *x, fl_value *out);
/* Evaluate the value of modification p (the element of an array value it
 * selects, if any). */
int eval_pmod(const pmod *p, const fl_expr *value, fl_value *out);
/* The connection graph node of port p of a library instance. */
int fl_lib_port_node(ictx *ic, fl_pref p, fl_loc loc);
/* The connection graph node of a connector path (created on first use). */
int vnode_get(ictx *ic, const char *path, int is_flange, fl_loc loc);
int vfind(ictx *ic, int x);
/* Add a connect() of scope e (subscripts of component arrays evaluated
 * with the iterators in scope). */
void add_connect(env *e, const fl_connect *cn);

#endif
