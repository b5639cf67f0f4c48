//@ kernel nested_structs
//@ global 1024
//@ local 128
//@ arg in float 4096 random -50 50
//@ arg in int 1024 random 0 1000
//@ arg out float 4096
// Nested structs in private memory, struct assignment (copy), structs returned from functions,
// pointers to structs and -> access, arrays inside structs and arrays of structs.
typedef struct { float x, y; } vec2_t;
typedef struct { vec2_t min, max; } box_t;
typedef struct { box_t box; int id; float hist[4]; } obj_t;
static vec2_t make_v(float x, float y) { vec2_t v; v.x = x; v.y = y; return v; }
static box_t make_box(vec2_t a, vec2_t b)
{
    box_t r;
    r.min = make_v(fmin(a.x, b.x), fmin(a.y, b.y));
    r.max = make_v(fmax(a.x, b.x), fmax(a.y, b.y));
    return r;
}
static void grow(box_t *b, float d) { b->min.x -= d; b->min.y -= d; b->max.x += d; b->max.y += d; }
static float area(const box_t *b) { return (b->max.x - b->min.x) * (b->max.y - b->min.y); }
__kernel void nested_structs(__global const float *in, __global const int *ids, __global float *out)
{
    int i = get_global_id(0);
    obj_t objs[2];
    objs[0].box = make_box(make_v(in[4 * i], in[4 * i + 1]), make_v(in[4 * i + 2], in[4 * i + 3]));
    objs[0].id = ids[i];
    for (int k = 0; k < 4; ++k) objs[0].hist[k] = (float)(ids[i] >> k);
    objs[1] = objs[0];
    grow(&objs[1].box, 1.5f);
    obj_t *p = &objs[1];
    out[4 * i] = area(&objs[0].box);
    out[4 * i + 1] = area(&p->box);
    out[4 * i + 2] = p->hist[ids[i] & 3] + objs[0].box.min.y;
    out[4 * i + 3] = (float)p->id - objs[1].box.max.x;
}
