//@ kernel switch_cases
//@ global 2048
//@ local 256
//@ arg in int 2048 random -3 12
//@ arg in uchar 2048 random 0 255
//@ arg out int 2048
// switch with fall-through, default in the middle, case ranges of consecutive labels, nested
// switch, switch on a char, break out of a switch inside a loop (leaves the switch only).
__kernel void switch_cases(__global const int *sel, __global const uchar *c, __global int *out)
{
    int i = get_global_id(0), r = 0;
    switch (sel[i]) {
    case 0: r += 1;
    case 1: r += 2;            /* fall through from 0 */
        break;
    case 2:
    case 3:
    case 4: r = 40; break;
    default: r = -1;           /* default not last: falls into case 7 */
    case 7: r *= 3; break;
    case 8: {
        switch (c[i] & 3) {
        case 0: r = 80; break;
        case 1: r = 81;
        default: r += 1000;
        }
        break;
    }
    case 10: r = 100; return_label: r += 5; break;
    }
    for (int k = 0; k < 4; ++k) {
        switch ((c[i] >> (2 * k)) & 3) {
        case 0: continue;
        case 1: r += 7; break;
        case 2: r ^= 0x55; break;
        default: r -= k;
        }
        r += 1;
    }
    switch ((char)c[i]) { case -1: r += 1 << 20; break; case 'A': r += 1 << 21; break; }
    out[i] = r;
}
