/* friction.h - the stick-slip machinery every friction element shares
 * (SupportFriction, Brake, MassWithStopAndFriction, Stop and the ideal
 * ForceLimiter): the state machine of MSL's PartialFriction, formulated on
 * the acceleration level with a path parameter sa as own unknown.
 *
 * While locked the element holds a1 - a0 = 0 and its force is sa, found
 * from the force balance of whatever is rigidly attached; while sliding the
 * force follows the element's law and sa = a + (break-away force) only
 * drives the events; while free the force is zero. Break-away happens when
 * sa passes the break-away force, sticking when the relative velocity
 * reaches zero (which is then made exactly zero). Thresholds may be
 * asymmetric (ForceLimiter: f_max forward, f_min backward). */
#ifndef FL_FRICTION_H
#define FL_FRICTION_H

#include "common.h"

/* MSL's encoding of mode */
enum { FL_FR_BACKWARD = -1, FL_FR_STUCK = 0, FL_FR_FORWARD = 1, FL_FR_FREE = 2, FL_FR_UNKNOWN = 3 };

/* discrete states at mode[e->mode + k] (elements append their own) */
/* FR_M_IDLE: parallel locks (see fl_fric_rigid): 1 a lock that other
 * locks already imply (no force, row a_rel = sa) or a start they hold at
 * zero speed; 2, 3 a held start just let go (goes on / locks); 4 a lock
 * that took over at its limit in this instant */
enum { FR_M_MODE, FR_M_PRE, FR_M_SF, FR_M_SB, FR_M_LOCKED, FR_M_FREE, FR_M_IDLE, FR_NMODES };

/* root functions at g[e->root + k] (elements append their own); each
 * watches one quantity against one threshold, armed only in the states
 * where its crossing can change something */
enum { FR_R_BREAK_F, FR_R_BREAK_B, FR_R_HOLD_F, FR_R_HOLD_B, FR_R_V, FR_R_VS_F, FR_R_VS_B, FR_NROOTS };

/* The friction quantities of an element at one point. */
typedef struct fl_fric {
    double v, a;            /* relative velocity and acceleration of the sliding surfaces */
    double sa;              /* the path parameter (own unknown) */
    double fwd0, fwdmax;    /* forward: sliding force at v = 0 and break-away force (>= fwd0) */
    double bwd0, bwdmax;    /* backward: the same, negative (-f0, -f0_max when symmetric) */
    double v_small;         /* reversal threshold */
    int free;               /* the element transmits no force now */
    int block_fwd, block_bwd; /* motion forward/backward impossible (at an end stop) */
} fl_fric;

typedef enum fl_fric_branch { FL_FB_LOCKED, FL_FB_FREE, FL_FB_FWD, FL_FB_BWD } fl_fric_branch;

/* Name of the own unknown and the hint when it is undetermined. */
extern const char *const fl_fric_own_names[];
extern const char fl_fric_own_hint[];

/* Which law holds in the continuous phase (MSL's priority order). */
fl_fric_branch fl_fric_branch_of(const int *m, double v);

/* The element's quantities from its attachments and own unknown. */
void fl_fric_kin(const fl_ectx *x, const fl_elem *e, fl_fric *q);

/* Own residual row (local row 2) for the branch, with its Jacobian entries
 * in columns A0, A1, OWN (ncols columns); the element adds derivatives of
 * its thresholds with respect to inputs. Returns the threshold used. */
double fl_fric_residual(fl_ectx *x, const fl_elem *e, fl_fric_branch br, const fl_fric *q, int ncols);

/* Root functions g[0 .. FR_NROOTS-1] of the current discrete state. */
void fl_fric_roots(const fl_fric *q, const int *m, double *g);

/* One pass of the event iteration: the discrete states from their
 * pre-values and q (dir: crossing directions of the FR_NROOTS roots).
 * Entering the locked state zeroes the relative velocity (an impulse of
 * rounding size). Returns 1 if a state changed. */
int fl_fric_event(fl_ectx *x, const fl_elem *e, const fl_fric *q, const int *dir);

/* The discrete states at initialisation (pre(mode) = Unknown, initial()). */
void fl_fric_init(int *m, const fl_fric *q);

/* The element's lock as a rigid relation between attachments 0 and 1
 * (fl_elem_ops.rigid), and setting it idle (fl_elem_ops.set_idle). */
int fl_fric_rigid(const fl_ectx *x, const fl_elem *e, fl_rigid *out);
int fl_fric_set_idle(fl_ectx *x, const fl_elem *e, int idle);

/* Table lookup of a friction characteristic (column 2 over column 1),
 * linear segments (or constant segments) with extrapolation through the
 * two end rows; *slope gets the derivative. */
enum { FL_TAB_LINEAR = 1, FL_TAB_CONSTANT = 3 }; /* Modelica.Blocks.Types.Smoothness literals */
double fl_fric_table(const fl_value *tab, int smoothness, double x, double *slope);
/* The same for column col (0-based; 1 is fl_fric_table's) over column 0:
 * LossyGear's efficiencies and bearing torques. */
double fl_fric_table_col(const fl_value *tab, int smoothness, int col, double x, double *slope);

/* Check of a friction table parameter (par[ktab], smoothness par[ksmooth])
 * and its value at v = 0, which must not be negative; returns -1 after an
 * error. */
int fl_fric_table_param(const fl_pctx *p, fl_diag *d, const char *name, int ktab, int ksmooth, const char *what,
                        double *at0);

#endif
