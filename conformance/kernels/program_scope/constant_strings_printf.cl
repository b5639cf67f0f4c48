//@ kernel constant_strings_printf
//@ global 4
//@ local 2
//@ arg in int 4 iota
// __constant string tables used as printf %s arguments and as printf-independent data; only
// work-item 0 prints.
__constant char kNames[4][8] = { "zero", "one", "two", "three" };
__constant char kFmtWord[] = "word";
__kernel void constant_strings_printf(__global const int *in)
{
    if (get_global_id(0) != 0) return;
    for (int k = 0; k < 4; ++k)
        printf("%s %d = %s (%c)\n", kFmtWord, in[k], kNames[in[k] & 3], kNames[k][0]);
}
