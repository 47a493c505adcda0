/* oracle/attention_rows.h — the fast path's softmax row passes in GCC vector extensions, one build
 * per instruction set. Not a public header: oracle/attention.c includes it once per kernel with
 * ROWS_W (floats per vector: 16, 8 or 4), ROWS_SUF (the name suffix) and ROWS_ATTR (the target
 * attribute, or nothing for the baseline) defined; it defines
 *   void row_max_SUF(const float *s, int64_t a, int64_t e, float *hi, float *lo)
 *     raises the lanes of hi and lowers those of lo (ROWS_W floats each, aligned) to the maximum
 *     and minimum of the s[c], a <= c < e, they see (read only; rounding is monotonic, so the
 *     maximum logit is max(hi) * scale, min(lo) * scale for a negative scale, rounded once);
 *   void row_scale_exp_SUF(float *s, int64_t n, int64_t a, int64_t e, float scale, float m,
 *                          float *sum)
 *     s[c] = exp(s[c] * scale - m) for a <= c < e, 0 elsewhere (the product rounded first, so
 *     the values are bit for bit those of row_logits then row_exp);
 *   float row_logits_SUF(float *s, int64_t n, int64_t a, int64_t e, float scale)
 *     s[c] = s[c] * scale for a <= c < e, -inf elsewhere; returns the maximum;
 *   void row_exp_SUF(float *s, int64_t n, float m, float *sum)
 *     s[c] = exp(s[c] - m) (0 for -inf).
 * (The first two are the common case; the last two leave room for the soft cap and custom mask
 * between them.) The exp passes add each value to lane c % ROWS_W of sum (ROWS_W floats,
 * aligned), so a row done in pieces whose lengths are multiples of ROWS_W gets the same lane
 * sums as in one piece; the caller adds the lanes in order at the end.
 * n is a multiple of ROWS_W and s is aligned to ROWS_W floats. */
#define ROWS_CAT2(a, b) a##_##b
#define ROWS_CAT(a, b) ROWS_CAT2(a, b)
#define ROWS_VF ROWS_CAT(rows_vf, ROWS_SUF)
#define ROWS_VI ROWS_CAT(rows_vi, ROWS_SUF)

#ifndef ROWS_ROUNDED /* an empty asm the value must pass through: no FMA contraction across it */
#if defined(__x86_64__)
#define ROWS_ROUNDED(v) __asm__("" : "+v"(v))
#else
#define ROWS_ROUNDED(v) __asm__("" : "+m"(v))
#endif
#endif

typedef float ROWS_VF __attribute__((vector_size(ROWS_W * 4)));
typedef int32_t ROWS_VI __attribute__((vector_size(ROWS_W * 4)));

/* exp(x) for x <= 0 (and -inf): Cephes' expf (x = n*ln2 + r, |r| <= ln2/2, a degree-7 polynomial
 * for e^r, then 2^n through the exponent field). Error: 1.01 ulp at worst against double exp,
 * checked on every float in [-87.3, 0] (avx512 build). Below -87.33, where e^x is no longer a
 * normal float (< 1.2e-38), it returns 0. */
ROWS_ATTR static inline ROWS_VF ROWS_CAT(vexp, ROWS_SUF)(ROWS_VF x) {
  const ROWS_VF lo = (ROWS_VF){0} - 87.33654f;
  ROWS_VI under = x < lo;
  x = (ROWS_VF)(((ROWS_VI)x & ~under) | ((ROWS_VI)lo & under));
  ROWS_VF n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f; /* round to nearest */
  ROWS_VF r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  ROWS_VF y = r * 1.9875691500e-4f + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * (r * r) + r + 1.0f;
  ROWS_VI e = (__builtin_convertvector(n, ROWS_VI) + 127) << 23; /* n in [-126, 0] */
  y = y * (ROWS_VF)e;
  return (ROWS_VF)((ROWS_VI)y & ~under);
}

ROWS_ATTR static float ROWS_CAT(row_logits, ROWS_SUF)(float *s, int64_t n, int64_t a, int64_t e, float scale) {
  const ROWS_VF ninf = (ROWS_VF){0} - INFINITY;
  ROWS_VI iota;
  for (int i = 0; i < ROWS_W; i++) iota[i] = i;
  ROWS_VF vm = ninf;
  for (int64_t c = 0; c < n; c += ROWS_W) {
    ROWS_VI ci = iota + (int32_t)c;
    ROWS_VI in = (ci >= (int32_t)a) & (ci < (int32_t)e);
    ROWS_VF x = *(ROWS_VF *)(s + c) * scale;
    x = (ROWS_VF)(((ROWS_VI)x & in) | ((ROWS_VI)ninf & ~in));
    *(ROWS_VF *)(s + c) = x;
    ROWS_VI gt = x > vm;
    vm = (ROWS_VF)(((ROWS_VI)x & gt) | ((ROWS_VI)vm & ~gt));
  }
  float m = vm[0];
  for (int i = 1; i < ROWS_W; i++)
    if (vm[i] > m) m = vm[i];
  return m;
}

#define ROWS_MAXMIN(x, in, vmax, vmin)                                                            \
  do {                                                                                             \
    ROWS_VI gt_ = (x > vmax) & (in), lt_ = (x < vmin) & (in);                                      \
    vmax = (ROWS_VF)(((ROWS_VI)x & gt_) | ((ROWS_VI)vmax & ~gt_));                                 \
    vmin = (ROWS_VF)(((ROWS_VI)x & lt_) | ((ROWS_VI)vmin & ~lt_));                                 \
  } while (0)

/* Whole vectors inside [a, e) unmasked, in two independent chains (a compare-and-select chain is
 * latency bound); the partial vectors at the ends masked. */
ROWS_ATTR static void ROWS_CAT(row_max, ROWS_SUF)(const float *s, int64_t a, int64_t e, float *hi, float *lo) {
  ROWS_VI iota, all = (ROWS_VI){0} - 1;
  for (int i = 0; i < ROWS_W; i++) iota[i] = i;
  ROWS_VF vmax0 = *(ROWS_VF *)hi, vmin0 = *(ROWS_VF *)lo, vmax1 = vmax0, vmin1 = vmin0;
  int64_t c = a / ROWS_W * ROWS_W, full = e / ROWS_W * ROWS_W;
  if (c < a || c + ROWS_W > e) { /* first vector partly outside */
    ROWS_VI ci = iota + (int32_t)c;
    ROWS_VF x = *(const ROWS_VF *)(s + c);
    ROWS_MAXMIN(x, (ci >= (int32_t)a) & (ci < (int32_t)e), vmax0, vmin0);
    c += ROWS_W;
  }
  for (; c + 2 * ROWS_W <= full; c += 2 * ROWS_W) {
    ROWS_VF x0 = *(const ROWS_VF *)(s + c), x1 = *(const ROWS_VF *)(s + c + ROWS_W);
    ROWS_MAXMIN(x0, all, vmax0, vmin0);
    ROWS_MAXMIN(x1, all, vmax1, vmin1);
  }
  for (; c < e; c += ROWS_W) {
    ROWS_VI ci = iota + (int32_t)c;
    ROWS_VF x = *(const ROWS_VF *)(s + c);
    ROWS_MAXMIN(x, ci < (int32_t)e, vmax0, vmin0);
  }
  ROWS_VI gt = vmax1 > vmax0, lt = vmin1 < vmin0;
  vmax0 = (ROWS_VF)(((ROWS_VI)vmax1 & gt) | ((ROWS_VI)vmax0 & ~gt));
  vmin0 = (ROWS_VF)(((ROWS_VI)vmin1 & lt) | ((ROWS_VI)vmin0 & ~lt));
  *(ROWS_VF *)hi = vmax0;
  *(ROWS_VF *)lo = vmin0;
}
#undef ROWS_MAXMIN

ROWS_ATTR static void ROWS_CAT(row_scale_exp, ROWS_SUF)(float *s, int64_t n, int64_t a, int64_t e, float scale,
                                                        float m, float *sum) {
  ROWS_VI iota;
  for (int i = 0; i < ROWS_W; i++) iota[i] = i;
  ROWS_VF acc = *(ROWS_VF *)sum;
  for (int64_t c = 0; c < n; c += ROWS_W) {
    ROWS_VI ci = iota + (int32_t)c;
    ROWS_VI in = (ci >= (int32_t)a) & (ci < (int32_t)e);
    ROWS_VF x = *(ROWS_VF *)(s + c) * scale;
    ROWS_ROUNDED(x); /* the product rounded, as row_logits stores it, not fused into "- m" */
    x = ROWS_CAT(vexp, ROWS_SUF)(x - m);
    x = (ROWS_VF)((ROWS_VI)x & in);
    *(ROWS_VF *)(s + c) = x;
    acc += x;
  }
  *(ROWS_VF *)sum = acc;
}

ROWS_ATTR static void ROWS_CAT(row_exp, ROWS_SUF)(float *s, int64_t n, float m, float *sum) {
  ROWS_VF acc = *(ROWS_VF *)sum;
  for (int64_t c = 0; c < n; c += ROWS_W) {
    ROWS_VF x = ROWS_CAT(vexp, ROWS_SUF)(*(ROWS_VF *)(s + c) - m);
    *(ROWS_VF *)(s + c) = x;
    acc += x;
  }
  *(ROWS_VF *)sum = acc;
}

#undef ROWS_VF
#undef ROWS_VI
#undef ROWS_CAT
#undef ROWS_CAT2
