-- sample_sd: the sample standard deviation of n terms from exact integer sums (s their sum, q the sum of their
-- squares): sqrt((n q - s^2) / (n (n - 1))), null when n < 2 (as stddev_samp). The integers are exact in any
-- order of summing, so the result does not change from run to run as a parallel stddev_samp does in its last
-- bits. A scalar macro: sample_sd(n, s, q).
create or replace macro sample_sd(n, s, q) as
case when n > 1 then sqrt(greatest((n::hugeint * q - s::hugeint * s)::double, 0) / (n::double * (n - 1))) end
