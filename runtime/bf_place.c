/* The builder's placement queue: data reached through an offset waits here until the
 * builder places it, in order, pooled data right after the region its offset is relative to. */
#include "bf_write.h"

#include <stdlib.h>
#include <string.h>

static int list_add(bf_index_list *l, size_t at)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        size_t *bigger = realloc(l->at, cap * sizeof *bigger);
        if (!bigger)
            return 0;
        l->at = bigger;
        l->cap = cap;
    }
    l->at[l->len++] = at;
    return 1;
}

int bf_enqueue_grow(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *), void *owner,
                    int shared)
{
    if (w->queued == w->queue_cap) {
        size_t cap = w->queue_cap ? w->queue_cap * 2 : 64;
        bf_placement *bigger = realloc(w->queue, cap * sizeof *bigger);
        if (!bigger)
            return bf_fail(&w->c, w->pos, NULL, "out of memory for the layout queue");
        w->queue = bigger;
        w->queue_cap = cap;
    }
    size_t at = w->queued;
    w->queue[at].place = place;
    w->queue[at].base = base;
    w->queue[at].owner = owner;
    w->queued++;
    if (!base)
        return 1;
    bf_index_list *list = NULL;
    if (shared) {
        for (size_t i = 0; i < w->group_count && !list; i++)
            if (w->groups[i].base == base) {
                w->last_group = &w->groups[i];
                list = &w->groups[i].waiting;
            }
        if (!list && w->group_count < BF_MAX_POOL_GROUPS) {
            bf_pool_group *g = &w->groups[w->group_count++];
            memset(g, 0, sizeof *g);
            g->base = base;
            w->last_group = g;
            list = &g->waiting;
        }
    }
    if (!list) /* owner-dependent, or more groups than kept apart: looked at one by one */
        list = &w->pooled;
    if (!list_add(list, at))
        return bf_fail(&w->c, w->pos, NULL, "out of memory for the layout queue");
    return 1;
}

static int place_one(bf_wctx *w, size_t at)
{
    int (*place)(bf_wctx *, void *) = w->queue[at].place;
    w->queue[at].place = NULL; /* placed: skipped by the queue */
    return place(w, w->queue[at].owner);
}

int bf_place_pooled_from(bf_wctx *w, int64_t region, size_t found)
{
    /* the waiting data whose base is `region`, in queue order. A group's data shares one base,
     * so each group's base is looked at once for the region, and the groups found drain: the
     * regions placed inside them are not compared with their base again (a base that moves
     * while they drain is a change, and the next pass places them anew). The owner-dependent
     * data is looked at one by one, in one forward sweep (data queued meanwhile included). */
    uint32_t looked = 0, matched = 0; /* groups by bit: base looked at, base is `region` */
    size_t last_matched = found;
    if (found != SIZE_MAX) {
        looked = matched = (uint32_t)1 << found;
        w->groups[found].draining = 1;
    }
    bf_index_list *own = &w->pooled;
    while (own->head < own->len && !bf_waiting(w, own->at[own->head]))
        own->head++;
    size_t sweep = own->head;
    size_t best;
    int ok = 1;
    for (;;) {
        /* one group draining alone (no other group to look at, no owner-dependent data):
         * its data in order, until something is queued that the general loop must see */
        if (matched && (matched & (matched - 1)) == 0 && looked == ((uint64_t)1 << w->group_count) - 1 &&
            sweep == own->len) {
            size_t groups = w->group_count, owned = own->len;
            bf_index_list *l = &w->groups[last_matched].waiting;
            while (ok && w->group_count == groups && own->len == owned) {
                while (l->head < l->len && !bf_waiting(w, l->at[l->head]))
                    l->head++;
                if (l->head == l->len)
                    break;
                ok = place_one(w, l->at[l->head]);
            }
            if (!ok)
                break;
        }
        best = SIZE_MAX;
        for (size_t g = 0; g < w->group_count; g++) {
            uint32_t bit = (uint32_t)1 << g;
            bf_pool_group *pg = &w->groups[g];
            if (pg->draining && !(matched & bit)) /* an outer placement drains it */
                continue;
            bf_index_list *l = &pg->waiting;
            while (l->head < l->len && !bf_waiting(w, l->at[l->head]))
                l->head++;
            if (l->head == l->len)
                continue;
            if (!(looked & bit)) {
                looked |= bit;
                if (pg->base(w, w->queue[l->at[l->head]].owner) == region) {
                    matched |= bit;
                    last_matched = g;
                    pg->draining = 1;
                }
            }
            if ((matched & bit) && l->at[l->head] < best)
                best = l->at[l->head];
        }
        while (sweep < own->len) {
            size_t at = own->at[sweep];
            if (at > best)
                break;
            if (bf_waiting(w, at) && w->queue[at].base(w, w->queue[at].owner) == region) {
                best = at;
                break;
            }
            sweep++;
        }
        if (best == SIZE_MAX || !(ok = place_one(w, best)))
            break;
    }
    for (size_t g = 0; g < w->group_count; g++)
        if (matched & ((uint32_t)1 << g))
            w->groups[g].draining = 0;
    return ok;
}

int bf_place_queued(bf_wctx *w)
{
    while (w->queue_next < w->queued) {
        /* pooled data placed after its region is marked placed: past it in one loop */
        size_t next = w->queue_next, queued = w->queued;
        const bf_placement *q = w->queue;
        while (next < queued && !q[next].place)
            next++;
        if (next == queued) {
            w->queue_next = next;
            break;
        }
        bf_placement p = q[next];
        w->queue_next = next + 1;
        if (!p.place(w, p.owner))
            return 0;
    }
    return 1;
}

