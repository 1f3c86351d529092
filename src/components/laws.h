/* laws.h - element operations shared between the translational classes
 * and their rotational twins (a rotational spring is the translational
 * spring's law with angle and torque for position and force): each law is
 * defined once, in the file of its translational class. */
#ifndef FL_COMPONENTS_LAWS_H
#define FL_COMPONENTS_LAWS_H

#include "component.h"

extern const fl_elem_ops fl_spring_ops;       /* f = c (s_rel - s_rel0); params c, s_rel0 */
extern const fl_elem_ops fl_damper_ops;       /* f = d v_rel; params d */
extern const fl_elem_ops fl_springdamper_ops; /* f = c (s_rel - s_rel0) + d v_rel; params c, d, s_rel0 */
extern const fl_elem_ops fl_force_ops;        /* flange.f = -u from input 0, support.f = u */

#endif
