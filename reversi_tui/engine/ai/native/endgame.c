/*
 * The exact endgame solver's node search in C: an optional accelerator.
 *
 * reversi_tui/engine/ai/endgame.py is the reference, and this module gives
 * the same scores (the final disc difference, empties to the winner; fail-soft
 * bounds outside the window may differ): the same kind of fail-soft negamax
 * alpha-beta in three layers (deep nodes with a transposition table and
 * fastest-first ordering, shallow nodes in parity order, unrolled routines for
 * the last four empties) and the same stability cut-off, but not the same tree:
 * the shallow layer starts at 7 empties here (6 in Python) and the ordering
 * also weighs potential mobility, so node counts differ.  Python keeps the
 * root (MTD(f), ties, every move's score); this module searches the nodes
 * below it (the speed-ups measured are in the README).  When it cannot be
 * built (no C compiler at install time) the game uses the Python solver.
 *
 * Bitboards: bit r * 8 + c is the square of row r, column c.
 *
 * The search holds no Python object but its stop check and releases the GIL
 * while it runs: the app's screen keeps drawing while the computer solves.
 * Every POLL_INTERVAL nodes it takes the GIL back to call the stop check and
 * to let Ctrl+C through (PyErr_CheckSignals).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* setup.py passes the SHA-256 of this file: native_endgame.py compares it with
 * the hash of the endgame.c installed beside it and ignores a module built from
 * another source (a stale build in an editable install, say). */
#ifndef SOURCE_SHA256
#error "build endgame.c through setup.py, which passes its hash as -DSOURCE_SHA256=<hex>"
#endif
#define STRINGIFY(x) #x
#define AS_STRING(x) STRINGIFY(x)

typedef uint64_t u64;

#define FULL 0xFFFFFFFFFFFFFFFFULL
#define CORNERS 0x8100000000000081ULL
#define NOT_A 0xFEFEFEFEFEFEFEFEULL /* every column but the first (c = 0) */
#define NOT_H 0x7F7F7F7F7F7F7F7FULL /* every column but the last (c = 7) */
#define INNER_COLS 0x7E7E7E7E7E7E7E7EULL
#define BORDER 0xFF818181818181FFULL

#define POLL_INTERVAL (1u << 16)
#define SHALLOW 7  /* at or below: no move generation, no table */
/* A child list's size: no position has more moves than squares.  Positions
 * reached in play have at most 33, but the module takes any board. */
#define MAX_MOVES 64
#define INF 127

/* ---- tables built at import ---------------------------------------------- */

/* RAY[d][sq]: the squares from sq (excluded) to the edge in direction d;
 * directions 0-3 go up the bit order, 4-7 down it. */
static u64 RAY[8][64];
static u64 NEIGHBOURS[64];
static int QUADRANT[64];
/* Shallow nodes try empties in this static order within a parity class:
 * corners first, then the centre and the A/B edge squares, C and X last. */
static const char *SQUARE_ORDER =
    "a1 h1 a8 h8 c4 f4 c5 f5 d3 e3 d6 e6 c3 f3 c6 f6 a3 h3 a6 h6 c1 f1 c8 f8 "
    "a4 h4 a5 h5 d1 e1 d8 e8 b3 g3 b6 g6 c2 f2 c7 f7 b4 g4 b5 g5 d2 e2 d7 e7 "
    "b1 g1 b8 g8 a2 h2 a7 h7 b2 g2 b7 g7 d4 e4 d5 e5";
static int ORDER[64];
/* The full lines through each square, by direction family: the rows,
 * columns and both diagonals, as masks. */
static u64 ROW_OF[64], COL_OF[64], DIAG_OF[64], ANTI_OF[64];

static void build_tables(void)
{
    static const int dr[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int dc[8] = {1, 0, 1, -1, -1, 0, -1, 1};
    for (int sq = 0; sq < 64; sq++) {
        int r = sq / 8, c = sq % 8;
        for (int d = 0; d < 8; d++) {
            u64 ray = 0;
            for (int rr = r + dr[d], cc = c + dc[d]; rr >= 0 && rr < 8 && cc >= 0 && cc < 8;
                 rr += dr[d], cc += dc[d])
                ray |= 1ULL << (rr * 8 + cc);
            RAY[d][sq] = ray;
        }
        u64 nb = 0;
        for (int rr = r - 1; rr <= r + 1; rr++)
            for (int cc = c - 1; cc <= c + 1; cc++)
                if (rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && (rr != r || cc != c))
                    nb |= 1ULL << (rr * 8 + cc);
        NEIGHBOURS[sq] = nb;
        QUADRANT[sq] = 1 << ((sq >= 32) * 2 + (sq % 8 >= 4));
        u64 bit = 1ULL << sq;
        ROW_OF[sq] = RAY[0][sq] | RAY[4][sq] | bit;
        COL_OF[sq] = RAY[1][sq] | RAY[5][sq] | bit;
        DIAG_OF[sq] = RAY[2][sq] | RAY[6][sq] | bit;
        ANTI_OF[sq] = RAY[3][sq] | RAY[7][sq] | bit;
    }
    const char *s = SQUARE_ORDER;
    for (int i = 0; i < 64; i++) {
        while (*s == ' ')
            s++;
        int col = s[0] - 'a', row = s[1] - '1';
        ORDER[row * 8 + col] = i;
        s += 2;
    }
}

/* ---- board primitives ------------------------------------------------------ */

static inline int popcount(u64 x) { return __builtin_popcountll(x); }

static inline u64 flips(u64 p, u64 o, int sq)
{
    u64 f = 0, r, e, b;
#define UP(d)                                                                                      \
    r = RAY[d][sq];                                                                                \
    e = r & ~o;                                                                                    \
    b = e & (0 - e);                                                                               \
    if (b & p)                                                                                     \
        f |= r & (b - 1);
#define DOWN(d)                                                                                    \
    r = RAY[d][sq];                                                                                \
    e = r & ~o;                                                                                    \
    if (e) {                                                                                       \
        b = 1ULL << (63 - __builtin_clzll(e));                                                     \
        if (b & p)                                                                                 \
            f |= r & ~((b << 1) - 1);                                                              \
    }
    UP(0) UP(1) UP(2) UP(3) DOWN(4) DOWN(5) DOWN(6) DOWN(7)
#undef UP
#undef DOWN
    return f;
}

static inline u64 legal_moves(u64 p, u64 o)
{
    u64 moves = 0, t, m;
#define SPREAD(mask, SH)                                                                           \
    m = o & (mask);                                                                                \
    t = m & (p SH);                                                                                \
    t |= m & (t SH);                                                                               \
    t |= m & (t SH);                                                                               \
    t |= m & (t SH);                                                                               \
    t |= m & (t SH);                                                                               \
    t |= m & (t SH);                                                                               \
    moves |= t SH;
    SPREAD(INNER_COLS, << 1)
    SPREAD(INNER_COLS, >> 1)
    SPREAD(FULL, << 8)
    SPREAD(FULL, >> 8)
    SPREAD(INNER_COLS, << 9)
    SPREAD(INNER_COLS, >> 9)
    SPREAD(INNER_COLS, << 7)
    SPREAD(INNER_COLS, >> 7)
#undef SPREAD
    return moves & ~(p | o);
}

static inline int final_score(u64 p, u64 o)
{
    int np = popcount(p), no = popcount(o);
    if (np > no)
        return 64 - 2 * no;
    if (np < no)
        return 2 * np - 64;
    return 0;
}

/* The squares whose line in each direction family is full. */
static inline void full_lines(u64 occ, u64 *rows, u64 *cols, u64 *diag, u64 *anti)
{
    u64 r = 0, c = 0, d = 0, a = 0;
    for (int i = 0; i < 8; i++) {
        u64 row = 0xFFULL << (8 * i);
        if ((occ & row) == row)
            r |= row;
        u64 col = 0x0101010101010101ULL << i;
        if ((occ & col) == col)
            c |= col;
    }
    /* Diagonals through the first row and the first column. */
    for (int i = 0; i < 8; i++) {
        u64 m = DIAG_OF[i];
        if ((occ & m) == m)
            d |= m;
        m = DIAG_OF[i * 8];
        if ((occ & m) == m)
            d |= m;
        m = ANTI_OF[i];
        if ((occ & m) == m)
            a |= m;
        m = ANTI_OF[i * 8 + 7];
        if ((occ & m) == m)
            a |= m;
    }
    *rows = r;
    *cols = c;
    *diag = d;
    *anti = a;
}

/*
 * A safe subset of the discs of ``me`` that can never be flipped: a disc is
 * kept when, along each of its four lines, the line is full or one of its two
 * neighbours on it is the edge or a stable disc of the same colour (a flip
 * along a line would have to flip that neighbour too).  Grown until nothing
 * changes, from the corners outward.
 */
static u64 stable_discs(u64 me, u64 other)
{
    u64 rows, cols, diag, anti;
    full_lines(me | other, &rows, &cols, &diag, &anti);
    u64 h0 = rows | 0x8181818181818181ULL, v0 = cols | 0xFF000000000000FFULL;
    u64 d0 = diag | BORDER, a0 = anti | BORDER;
    u64 st = 0;
    for (;;) {
        u64 h = h0 | ((st << 1) & NOT_A) | ((st >> 1) & NOT_H);
        u64 v = v0 | (st << 8) | (st >> 8);
        u64 d = d0 | ((st << 9) & NOT_A) | ((st >> 9) & NOT_H);
        u64 a = a0 | ((st << 7) & NOT_H) | ((st >> 7) & NOT_A);
        u64 next = me & h & v & d & a;
        if (next == st)
            return st;
        st = next;
    }
}

/* ---- the search ------------------------------------------------------------ */

typedef struct {
    u64 p, o;
    int8_t lower, upper;
    uint8_t move; /* best move's square, 64 for none */
    uint8_t empties;
} Entry;

typedef struct {
    Entry *table;
    u64 mask; /* table size - 1 (entries; buckets of two) */
    u64 nodes;
    u64 next_poll;
    PyObject *should_stop; /* borrowed from the Search object; may be NULL */
    PyThreadState *thread;
    int stop; /* 1: the stop check said stop; 2: a Python exception is set */
    int stability_alpha[65];
} Ctx;

static int poll(Ctx *c)
{
    c->next_poll = c->nodes + POLL_INTERVAL;
    PyEval_RestoreThread(c->thread);
    if (PyErr_CheckSignals() < 0) {
        c->stop = 2;
    } else if (c->should_stop != NULL) {
        PyObject *res = PyObject_CallNoArgs(c->should_stop);
        if (res == NULL) {
            c->stop = 2;
        } else {
            int truth = PyObject_IsTrue(res);
            Py_DECREF(res);
            if (truth < 0)
                c->stop = 2;
            else if (truth)
                c->stop = 1;
        }
    }
    c->thread = PyEval_SaveThread();
    return c->stop;
}

static inline u64 hash(u64 p, u64 o)
{
    u64 h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

static inline Entry *probe(Ctx *c, u64 p, u64 o)
{
    Entry *e = c->table + (hash(p, o) & c->mask & ~1ULL);
    if (e[0].p == p && e[0].o == o)
        return e;
    if (e[1].p == p && e[1].o == o)
        return e + 1;
    return NULL;
}

static inline void store(Ctx *c, u64 p, u64 o, int n, int lower, int upper, int move)
{
    Entry *e = c->table + (hash(p, o) & c->mask & ~1ULL);
    /* The same position's slot, else the slot of fewer empties (cheaper to redo). */
    if (!(e[0].p == p && e[0].o == o)) {
        if ((e[1].p == p && e[1].o == o) || e[1].empties < e[0].empties)
            e = e + 1;
    }
    e->p = p;
    e->o = o;
    e->lower = (int8_t)lower;
    e->upper = (int8_t)upper;
    e->move = (uint8_t)move;
    e->empties = (uint8_t)n;
}

/* The score of ``p`` to move when ``sq`` is the only empty square. */
static inline int last1(u64 p, u64 o, int sq)
{
    int n = popcount(p);
    int k = popcount(flips(p, o, sq));
    if (k)
        return 2 * (n + k) - 62;
    k = popcount(flips(o, p, sq));
    if (k)
        return 2 * (n - k) - 64;
    return n > 31 ? 2 * n - 62 : 2 * n - 64;
}

static int solve2(Ctx *c, u64 p, u64 o, int alpha, int beta, int a, int b)
{
    u64 f;
    int best = -INF, v;
    c->nodes++;
    if ((NEIGHBOURS[a] & o) && (f = flips(p, o, a))) {
        best = -last1(o ^ f, p | f | (1ULL << a), b);
        if (best >= beta)
            return best;
    }
    if ((NEIGHBOURS[b] & o) && (f = flips(p, o, b))) {
        v = -last1(o ^ f, p | f | (1ULL << b), a);
        return v > best ? v : best;
    }
    if (best > -INF)
        return best;
    best = INF;
    if ((NEIGHBOURS[a] & p) && (f = flips(o, p, a))) {
        best = last1(p ^ f, o | f | (1ULL << a), b);
        if (best <= alpha)
            return best;
    }
    if ((NEIGHBOURS[b] & p) && (f = flips(o, p, b))) {
        v = last1(p ^ f, o | f | (1ULL << b), a);
        return v < best ? v : best;
    }
    if (best < INF)
        return best;
    return final_score(p, o);
}

static int can_move(u64 p, u64 o, const int *sq, int n)
{
    for (int i = 0; i < n; i++)
        if ((NEIGHBOURS[sq[i]] & o) && flips(p, o, sq[i]))
            return 1;
    return 0;
}

static int solve3(Ctx *c, u64 p, u64 o, int alpha, int beta, int a, int b, int d)
{
    u64 f;
    int best = -INF, v;
    c->nodes++;
    if ((NEIGHBOURS[a] & o) && (f = flips(p, o, a))) {
        best = -solve2(c, o ^ f, p | f | (1ULL << a), -beta, -alpha, b, d);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    if ((NEIGHBOURS[b] & o) && (f = flips(p, o, b))) {
        v = -solve2(c, o ^ f, p | f | (1ULL << b), -beta, -alpha, a, d);
        if (v > best) {
            if (v >= beta)
                return v;
            best = v;
            if (v > alpha)
                alpha = v;
        }
    }
    if ((NEIGHBOURS[d] & o) && (f = flips(p, o, d))) {
        v = -solve2(c, o ^ f, p | f | (1ULL << d), -beta, -alpha, a, b);
        return v > best ? v : best;
    }
    if (best > -INF)
        return best;
    int sq[3] = {a, b, d};
    if (can_move(o, p, sq, 3))
        return -solve3(c, o, p, -beta, -alpha, a, b, d);
    return final_score(p, o);
}

/* Fail-soft bookkeeping of a child's score ``v``: a cut-off returns at once. */
#define KEEP_BEST(v)                                                                               \
    if ((v) > best) {                                                                              \
        best = (v);                                                                                \
        if ((v) > alpha) {                                                                         \
            if ((v) >= beta)                                                                       \
                return (v);                                                                        \
            alpha = (v);                                                                           \
        }                                                                                          \
    }

static int solve4(Ctx *c, u64 p, u64 o, int alpha, int beta, const int *sq)
{
    int s[4] = {sq[0], sq[1], sq[2], sq[3]};
    int q0 = QUADRANT[s[0]], q1 = QUADRANT[s[1]], q2 = QUADRANT[s[2]], q3 = QUADRANT[s[3]];
    int parity = q0 ^ q1 ^ q2 ^ q3;
    c->nodes++;
    if (parity && (q0 | q1 | q2 | q3) != parity) {
        /* Holes of sizes 1, 1 and 2: the two lone squares first. */
        int k = 0, t[4];
        for (int i = 0; i < 4; i++)
            if (QUADRANT[sq[i]] & parity)
                t[k++] = sq[i];
        for (int i = 0; i < 4; i++)
            if (!(QUADRANT[sq[i]] & parity))
                t[k++] = sq[i];
        memcpy(s, t, sizeof s);
    }
    static const int rest[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    int best = -INF;
    for (int i = 0; i < 4; i++) {
        int x = s[i];
        u64 f;
        if ((NEIGHBOURS[x] & o) && (f = flips(p, o, x))) {
            int v = -solve3(c, o ^ f, p | f | (1ULL << x), -beta, -alpha, s[rest[i][0]],
                            s[rest[i][1]], s[rest[i][2]]);
            KEEP_BEST(v)
        }
    }
    if (best > -INF)
        return best;
    if (can_move(o, p, s, 4))
        return -solve4(c, o, p, -beta, -alpha, s);
    return final_score(p, o);
}

/* Five to SHALLOW empties, ``sq`` in static order: odd quadrants first. */
static int shallow(Ctx *c, u64 p, u64 o, int alpha, int beta, const int *sq, int n, int parity)
{
    c->nodes++;
    if (alpha >= c->stability_alpha[n]) {
        int bound = 64 - 2 * popcount(stable_discs(o, p));
        if (bound <= alpha)
            return bound;
    }
    int best = -INF, rest[SHALLOW];
    for (int pass = 0; pass < 2; pass++) {
        int mask = pass ? ~parity : parity;
        for (int i = 0; i < n; i++) {
            int x = sq[i];
            u64 f;
            if (!(QUADRANT[x] & mask) || !(NEIGHBOURS[x] & o) || !(f = flips(p, o, x)))
                continue;
            int k = 0;
            for (int j = 0; j < n; j++)
                if (j != i)
                    rest[k++] = sq[j];
            u64 np = o ^ f, no = p | f | (1ULL << x);
            int v = n == 5 ? -solve4(c, np, no, -beta, -alpha, rest)
                           : -shallow(c, np, no, -beta, -alpha, rest, n - 1, parity ^ QUADRANT[x]);
            KEEP_BEST(v)
        }
    }
    if (best > -INF)
        return best;
    if (can_move(o, p, sq, n))
        return -shallow(c, o, p, -beta, -alpha, sq, n, parity);
    return final_score(p, o);
}

/* The empty squares of ``occ`` in static order, and their quadrant parity. */
static int empties_of(u64 occ, int *sq, int *parity)
{
    u64 e = ~occ;
    int n = 0, par = 0;
    while (e) {
        int x = __builtin_ctzll(e);
        e &= e - 1;
        int j = n++;
        while (j > 0 && ORDER[sq[j - 1]] > ORDER[x]) {
            sq[j] = sq[j - 1];
            j--;
        }
        sq[j] = x;
        par ^= QUADRANT[x];
    }
    *parity = par;
    return n;
}

static int child_node(Ctx *c, u64 p, u64 o, int alpha, int beta, const int *parent, int n,
                      int played, int parity);

typedef struct {
    u64 p, o, moves;
    int sq, key;
} Child;

/* More than SHALLOW empties: the table, its move first, then fastest-first. */
static int deep(Ctx *c, u64 p, u64 o, int alpha, int beta, int n, u64 moves)
{
    if (++c->nodes >= c->next_poll && poll(c))
        return 0;
    if (!moves) {
        u64 opp = legal_moves(o, p);
        if (!opp)
            return final_score(p, o);
        return -deep(c, o, p, -beta, -alpha, n, opp);
    }
    if (alpha >= c->stability_alpha[n]) {
        int bound = 64 - 2 * popcount(stable_discs(o, p));
        if (bound <= alpha)
            return bound;
    }
    int lower = -64, upper = 64, hint = 64;
    Entry *hit = probe(c, p, o);
    if (hit) {
        lower = hit->lower;
        upper = hit->upper;
        hint = hit->move;
        if (lower >= beta)
            return lower;
        if (upper <= alpha || lower == upper)
            return upper;
        if (lower > alpha)
            alpha = lower;
        if (upper < beta)
            beta = upper;
    }
    Child ch[MAX_MOVES];
    int k = 0;
    int n1 = n - 1;
    while (moves) {
        int x = __builtin_ctzll(moves);
        u64 bit = moves & (0 - moves);
        moves ^= bit;
        u64 f = flips(p, o, x);
        Child *d = &ch[k++];
        d->p = o ^ f;
        d->o = p | f | bit;
        d->sq = x;
        if (x == hint) {
            d->moves = n1 > SHALLOW ? legal_moves(d->p, d->o) : 0;
            d->key = -1000;
            continue;
        }
        u64 cm = legal_moves(d->p, d->o);
        d->moves = cm;
        /* Fastest first: the opponent's replies (corners twice) weigh 4, the empty
         * squares next to the mover's discs (the opponent's potential replies) 1:
         * 8-10% fewer nodes than replies alone on the 18-empty set and FFO #40-44. */
        u64 mine = d->o;
        u64 around = ((mine << 1) & NOT_A) | ((mine >> 1) & NOT_H) | (mine << 8) | (mine >> 8) |
                     ((mine << 9) & NOT_A) | ((mine >> 9) & NOT_H) | ((mine << 7) & NOT_H) |
                     ((mine >> 7) & NOT_A);
        d->key = 4 * (popcount(cm) + popcount(cm & CORNERS)) + popcount(around & ~(d->p | mine));
    }
    /* Insertion sort: a handful of children. */
    for (int i = 1; i < k; i++) {
        Child t = ch[i];
        int j = i;
        while (j > 0 && ch[j - 1].key > t.key) {
            ch[j] = ch[j - 1];
            j--;
        }
        ch[j] = t;
    }
    /* Children at SHALLOW empties or fewer take this node's empties (in static
     * order) less their own square, listed once here rather than in each child. */
    int sq[SHALLOW + 1], parity = 0;
    if (n1 <= SHALLOW)
        empties_of(p | o, sq, &parity);
    int alpha0 = alpha, best = -INF, best_sq = 64;
    if (n1 > SHALLOW) {
        /* Enhanced transposition cutoff: a child known to refute the opponent. */
        for (int i = 0; i < k; i++) {
            Entry *e = probe(c, ch[i].p, ch[i].o);
            if (e && -e->upper >= beta) {
                best = -e->upper;
                best_sq = ch[i].sq;
                goto done;
            }
        }
    }
    for (int i = 0; i < k; i++) {
        int v;
        if (n1 > SHALLOW) {
            v = -deep(c, ch[i].p, ch[i].o, -beta, -alpha, n1, ch[i].moves);
        } else {
            v = -child_node(c, ch[i].p, ch[i].o, -beta, -alpha, sq, n, ch[i].sq, parity);
        }
        if (c->stop)
            return 0;
        if (v > best) {
            best = v;
            best_sq = ch[i].sq;
            if (v > alpha) {
                if (v >= beta)
                    break;
                alpha = v;
            }
        }
    }
done:
    if (best >= beta)
        store(c, p, o, n, best, upper, best_sq);
    else if (best <= alpha0)
        store(c, p, o, n, lower, best, best_sq);
    else
        store(c, p, o, n, best, best, best_sq);
    return best;
}

/* A position of SHALLOW empties or fewer, its empties ``sq`` in static order. */
static int small_node(Ctx *c, u64 p, u64 o, int alpha, int beta, const int *sq, int n, int parity)
{
    switch (n) {
    case 0:
        return final_score(p, o);
    case 1:
        c->nodes++;
        return last1(p, o, sq[0]);
    case 2:
        return solve2(c, p, o, alpha, beta, sq[0], sq[1]);
    case 3:
        return solve3(c, p, o, alpha, beta, sq[0], sq[1], sq[2]);
    case 4:
        return solve4(c, p, o, alpha, beta, sq);
    default:
        return shallow(c, p, o, alpha, beta, sq, n, parity);
    }
}

/* A deep node's child after ``played``: the parent's ``n`` empties less that square. */
static int child_node(Ctx *c, u64 p, u64 o, int alpha, int beta, const int *parent, int n,
                      int played, int parity)
{
    int sq[SHALLOW], k = 0;
    for (int i = 0; i < n; i++)
        if (parent[i] != played)
            sq[k++] = parent[i];
    return small_node(c, p, o, alpha, beta, sq, k, parity ^ QUADRANT[played]);
}

/* Any position: dispatch on its number of empties. */
static int node(Ctx *c, u64 p, u64 o, int alpha, int beta, int n)
{
    if (n > SHALLOW)
        return deep(c, p, o, alpha, beta, n, legal_moves(p, o));
    int sq[SHALLOW], parity;
    empties_of(p | o, sq, &parity);
    return small_node(c, p, o, alpha, beta, sq, n, parity);
}

/* ---- the Python type ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Ctx ctx; /* ctx.table is NULL until __init__ succeeds */
    PyObject *should_stop;
    int busy;
} SearchObject;

#define MIN_TABLE_BITS 4
#define MAX_TABLE_BITS 30
/* Any margin gives exact scores (it only decides when the cut-off is tried);
 * the bounds keep 2 * n + margin far from int overflow. */
#define MAX_MARGIN 256

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"should_stop", "table_bits", "stability_margin", NULL};
    PyObject *should_stop = Py_None;
    int bits = 21, margin = 10;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Oii", kwlist, &should_stop, &bits, &margin))
        return -1;
    if (should_stop != Py_None && !PyCallable_Check(should_stop)) {
        PyErr_SetString(PyExc_TypeError, "should_stop must be a callable or None");
        return -1;
    }
    if (bits < MIN_TABLE_BITS || bits > MAX_TABLE_BITS) {
        PyErr_Format(PyExc_ValueError, "table_bits must be between %d and %d, not %d",
                     MIN_TABLE_BITS, MAX_TABLE_BITS, bits);
        return -1;
    }
    if (margin < -MAX_MARGIN || margin > MAX_MARGIN) {
        PyErr_Format(PyExc_ValueError, "stability_margin must be between %d and %d, not %d",
                     -MAX_MARGIN, MAX_MARGIN, margin);
        return -1;
    }
    if (self->ctx.table != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Search is already initialised");
        return -1;
    }
    self->ctx.table = calloc((size_t)1 << bits, sizeof(Entry));
    if (self->ctx.table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->ctx.mask = ((u64)1 << bits) - 1;
    for (int n = 0; n <= 64; n++)
        self->ctx.stability_alpha[n] = 2 * n + margin;
    Py_XSETREF(self->should_stop, should_stop == Py_None ? NULL : Py_NewRef(should_stop));
    return 0;
}

/* The stop check may refer back to its search (a bound method of an object
 * holding it): the collector must see that cycle, or the table (48 MiB by
 * default) is never freed. */
static int Search_traverse(SearchObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->should_stop);
    return 0;
}

static int Search_clear(SearchObject *self)
{
    Py_CLEAR(self->should_stop);
    return 0;
}

static void Search_dealloc(SearchObject *self)
{
    PyObject_GC_UnTrack(self);
    Search_clear(self);
    free(self->ctx.table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A board: a 64-bit mask (bit r * 8 + c for row r, column c). */
static int read_board(PyObject *value, const char *name, u64 *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int (a 64-bit board mask), not %.100s", name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError))
            PyErr_Format(PyExc_OverflowError, "%s must be a 64-bit board mask: 0 <= %s < 2**64",
                         name, name);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_bound(PyObject *value, const char *name, long *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < -INF + 1 || v > INF - 1) {
        PyErr_Format(PyExc_ValueError, "%s must be between %d and %d", name, -INF + 1, INF - 1);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_sides(PyObject *const *args, const char *first, const char *second, u64 *p,
                      u64 *o)
{
    if (read_board(args[0], first, p) < 0 || read_board(args[1], second, o) < 0)
        return -1;
    if (*p & *o) {
        PyErr_SetString(PyExc_ValueError, "the two boards overlap: a square holds both sides");
        return -1;
    }
    return 0;
}

/* node(p, o, alpha, beta): the fail-soft score, or None when stopped. */
static PyObject *Search_node(SearchObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    u64 p, o;
    long alpha, beta;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "node(p, o, alpha, beta) takes 4 arguments");
        return NULL;
    }
    if (read_sides(args, "p", "o", &p, &o) < 0 || read_bound(args[2], "alpha", &alpha) < 0 ||
        read_bound(args[3], "beta", &beta) < 0)
        return NULL;
    if (alpha >= beta) {
        PyErr_Format(PyExc_ValueError, "the window is empty: alpha (%ld) must be below beta (%ld)",
                     alpha, beta);
        return NULL;
    }
    if (self->ctx.table == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this Search was not initialised: create it by calling Search(...)");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is already running");
        return NULL;
    }
    Ctx *c = &self->ctx;
    self->busy = 1;
    c->should_stop = self->should_stop;
    c->stop = 0;
    c->next_poll = c->nodes + 1; /* a stop asked before this call is seen at once */
    int n = 64 - popcount(p | o);
    c->thread = PyEval_SaveThread();
    int v = node(c, p, o, (int)alpha, (int)beta, n);
    PyEval_RestoreThread(c->thread);
    self->busy = 0;
    if (c->stop == 2)
        return NULL;
    if (c->stop == 1)
        Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *Search_count(SearchObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromUnsignedLongLong(self->ctx.nodes);
}

static PyObject *module_stable_discs(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    u64 p, o;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "stable_discs(me, other) takes 2 arguments");
        return NULL;
    }
    if (read_sides(args, "me", "other", &p, &o) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(stable_discs(p, o));
}

static PyMethodDef Search_methods[] = {
    {"node", (PyCFunction)(void (*)(void))Search_node, METH_FASTCALL,
     "node(p, o, alpha, beta): the fail-soft score of p to move, None when stopped."},
    {"count", (PyCFunction)Search_count, METH_NOARGS, "Nodes searched so far."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "reversi_tui.engine.ai._endgame.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Search(should_stop=None, table_bits=21, stability_margin=10): one solve's node "
              "search and transposition table (2**table_bits entries of 24 bytes).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_traverse = (traverseproc)Search_traverse,
    .tp_clear = (inquiry)Search_clear,
    .tp_free = PyObject_GC_Del,
    .tp_methods = Search_methods,
};

static PyMethodDef module_methods[] = {
    {"stable_discs", (PyCFunction)(void (*)(void))module_stable_discs, METH_FASTCALL,
     "stable_discs(me, other): a safe subset of me's discs that can never flip."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "reversi_tui.engine.ai._endgame",
    .m_doc = "The endgame solver's node search in C (see reversi_tui/engine/ai/endgame.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__endgame(void)
{
    build_tables();
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_SHA256", AS_STRING(SOURCE_SHA256)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
