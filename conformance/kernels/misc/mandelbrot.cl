//@ kernel mandelbrot
//@ global 128 64
//@ local 16 4
//@ arg scalar float2 -2.0 -1.0
//@ arg scalar float2 0.0234375 0.03125
//@ arg scalar int 256
//@ arg out uint 8192
// Mandelbrot escape-time iteration with a data-dependent trip count per pixel (float2 origin
// and step passed by value).
__kernel void mandelbrot(float2 origin, float2 step, int maxit, __global uint *out)
{
    int px = get_global_id(0), py = get_global_id(1);
    float cr = origin.x + px * step.x, ci = origin.y + py * step.y;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++it;
    }
    out[py * get_global_size(0) + px] = (uint)it;
}
