-- decimal_sample_sd: the sample standard deviation of n decimal terms from their exact decimal sum s and sum of
-- squares q (game points, in tenths): sqrt((n q - s^2) / (n (n - 1))), null when n < 2 (as stddev_samp), exact
-- in any order of summing as sample_sd is for integers. A scalar macro: decimal_sample_sd(n, s, q).
create or replace macro decimal_sample_sd(n, s, q) as
case when n > 1 then sqrt(greatest((n * q - s * s)::double, 0) / (n::double * (n - 1))) end
