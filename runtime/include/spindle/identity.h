/* Who a Spindle program is (docs/POSIX.md, "Permissions"): an ordinary user, uid and gid 1000,
 * who owns every file of its tree, or, when linked with `spindle cc --as-root`, root (uid 0),
 * for whom no permission is ever checked. The link option defines spindle_link_as_root; a
 * weak reference that nothing defined reads as a null address, so the default costs nothing. */
#ifndef SPINDLE_IDENTITY_H
#define SPINDLE_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#define SPINDLE_USER_ID 1000u
#define SPINDLE_GROUP_ID 1000u

extern const bool spindle_link_as_root __attribute__((weak));

static inline bool spindle_runs_as_root(void)
{
    return &spindle_link_as_root != NULL && spindle_link_as_root;
}
static inline unsigned spindle_user_id(void) { return spindle_runs_as_root() ? 0 : SPINDLE_USER_ID; }
static inline unsigned spindle_group_id(void) { return spindle_runs_as_root() ? 0 : SPINDLE_GROUP_ID; }

#endif
