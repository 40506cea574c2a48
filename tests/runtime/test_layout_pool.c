/* The builder's placement of pooled data (runtime bf_enqueue_pooled / bf_place_pooled):
 * data whose offset counts from another region goes right after that region, in queue
 * order, whether it shares its group's base or has a base of its own, with the data queued
 * while a group drains, and the data pooled after a region that was itself pooled.
 *
 * Each piece of data here is one byte, its name, placed at the end of the image; a region's
 * position is what the pieces' bases compare with. The order of the bytes in the image is
 * the order of placement. Data waiting for its region comes after the region in the queue
 * (as a chunk's parts queue their indices once the chunk is placed) and before other data
 * (Z), which it overtakes. */
#include <criterion/criterion.h>
#include <string.h>

#include "bf_write.h"

/* A piece of data: its name (its one byte), the piece whose region is its base (NULL: none,
 * placed in queue order), and the pieces its placement queues. */
typedef struct piece {
    char name;
    const struct piece *after;
    int64_t at; /* where it was placed (-1: not yet) */
    int shared; /* queued into the group of its base function (which ignores the owner) */
    struct piece *queues[4];
} piece;

static piece *base_of_group; /* what the shared base function reads: one piece for all */

static int64_t base_shared(bf_wctx *w, void *owner)
{
    (void)w, (void)owner;
    return base_of_group ? base_of_group->at : -1;
}

static int64_t base_own(bf_wctx *w, void *owner)
{
    (void)w;
    const piece *p = owner;
    return p->after ? p->after->at : -1;
}

static int enqueue_piece(bf_wctx *w, piece *p);

static int place_piece(bf_wctx *w, void *owner)
{
    piece *p = owner;
    if (!bf_place_at_end(w, 1, "piece"))
        return 0;
    p->at = (int64_t)w->pos;
    if (!bf_put_bytes(w, (const uint8_t *)&p->name, 1, "piece"))
        return 0;
    for (int i = 0; i < 4 && p->queues[i]; i++)
        if (!enqueue_piece(w, p->queues[i]))
            return 0;
    return bf_place_pooled(w, p->at);
}

static int enqueue_piece(bf_wctx *w, piece *p)
{
    if (!p->after)
        return bf_enqueue(w, place_piece, NULL, p);
    return bf_enqueue_pooled(w, place_piece, p->shared ? base_shared : base_own, p, p->shared);
}

/* Queues `top` (in order, NULL-terminated), places everything and returns the image as text. */
static void lay_out(piece **top, char *text, size_t size)
{
    bf_buffer out = {0};
    bf_wctx w;
    bf_wctx_init(&w, &out, NULL);
    w.layout = 1;
    for (int i = 0; top[i]; i++)
        cr_assert(enqueue_piece(&w, top[i]));
    cr_assert(bf_place_queued(&w), "%s", w.err.message);
    cr_assert_lt(out.size, size);
    memcpy(text, out.data, out.size);
    text[out.size] = 0;
    bf_wctx_free(&w);
    bf_buffer_free(&out);
}

#define PIECE(var, ch) piece var = {.name = ch, .at = -1}

Test(pool, a_shared_group_goes_after_its_region_in_queue_order)
{
    PIECE(a, 'A');
    PIECE(b, 'B');
    PIECE(c, 'C');
    PIECE(x1, '1');
    PIECE(x2, '2');
    PIECE(x3, '3');
    x1.after = x2.after = x3.after = &b;
    x1.shared = x2.shared = x3.shared = 1;
    base_of_group = &b;
    piece *top[] = {&a, &b, &c, &x1, &x2, &x3, NULL};
    char text[32];
    lay_out(top, text, sizeof text);
    cr_expect_str_eq(text, "AB123C");
}

Test(pool, shared_and_own_bases_of_one_region_merge_in_queue_order)
{
    PIECE(r, 'R');
    PIECE(s1, '1');
    PIECE(o2, '2');
    PIECE(s3, '3');
    PIECE(o4, '4');
    s1.after = o2.after = s3.after = o4.after = &r;
    s1.shared = s3.shared = 1;
    base_of_group = &r;
    PIECE(z, 'Z');
    piece *top[] = {&r, &z, &s1, &o2, &s3, &o4, NULL};
    char text[32];
    lay_out(top, text, sizeof text);
    cr_expect_str_eq(text, "R1234Z");
}

Test(pool, data_queued_while_a_group_drains_goes_with_it)
{
    /* 1 queues 3 into the same group while the group drains after R: 3 goes after R's data
     * queued before it (2), and before Z */
    PIECE(r, 'R');
    PIECE(z, 'Z');
    PIECE(s1, '1');
    PIECE(s2, '2');
    PIECE(s3, '3');
    s1.after = s2.after = s3.after = &r;
    s1.shared = s2.shared = s3.shared = 1;
    s1.queues[0] = &s3;
    base_of_group = &r;
    piece *top[] = {&r, &z, &s1, &s2, NULL};
    char text[32];
    lay_out(top, text, sizeof text);
    cr_expect_str_eq(text, "R123Z");
}

Test(pool, data_pooled_after_pooled_data_follows_it_at_once)
{
    /* the group drains after R; its second piece is the base of two own-based pieces, which
     * go right after it, before the group's third piece */
    PIECE(r, 'R');
    PIECE(z, 'Z');
    PIECE(s1, '1');
    PIECE(s2, '2');
    PIECE(s3, '3');
    PIECE(t1, 'a');
    PIECE(t2, 'b');
    s1.after = s2.after = s3.after = &r;
    s1.shared = s2.shared = s3.shared = 1;
    t1.after = t2.after = &s2;
    base_of_group = &r;
    piece *top[] = {&r, &z, &s1, &t1, &s2, &t2, &s3, NULL};
    char text[32];
    lay_out(top, text, sizeof text);
    cr_expect_str_eq(text, "R12ab3Z");
}

Test(pool, a_group_whose_base_is_no_region_goes_in_queue_order)
{
    PIECE(a, 'A');
    PIECE(s1, '1');
    PIECE(s2, '2');
    PIECE(b, 'B');
    s1.after = s2.after = &a;
    s1.shared = s2.shared = 1;
    base_of_group = NULL; /* base -1: no region starts there */
    piece *top[] = {&a, &s1, &s2, &b, NULL};
    char text[32];
    lay_out(top, text, sizeof text);
    cr_expect_str_eq(text, "A12B");
}

Test(pool, own_based_data_queued_while_a_group_drains_joins_it)
{
    /* while the shared group drains after R, piece 1 queues own-based data for R (a new
     * kind of data in the middle of the drain): it goes after R too, in queue order */
    PIECE(r, 'R');
    PIECE(z, 'Z');
    PIECE(s1, '1');
    PIECE(s2, '2');
    PIECE(o, 'o');
    s1.after = s2.after = o.after = &r;
    s1.shared = s2.shared = 1;
    s1.queues[0] = &o;
    base_of_group = &r;
    piece *top[] = {&r, &z, &s1, &s2, NULL};
    char text[32];
    lay_out(top, text, sizeof text);
    cr_expect_str_eq(text, "R12oZ");
}
