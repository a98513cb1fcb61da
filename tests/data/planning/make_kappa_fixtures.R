# Fixtures for corpusagree.stats.planning.kappa_units: R's irr::N.cohen.kappa (Cantor 1996)
# on random designs. Made once with Debian's R and irr installed from CRAN's sources
# (R CMD INSTALL -l LIB irr); the tests read the CSV, never R.
#   Rscript tests/data/planning/make_kappa_fixtures.R LIB > tests/data/planning/n_cohen_kappa.csv
args <- commandArgs(trailingOnly = TRUE)
if (length(args)) .libPaths(c(args[1], .libPaths()))
suppressMessages(library(irr))
set.seed(20261206)
n <- 60
rate1 <- round(runif(n, 0.1, 0.9), 3)
rate2 <- pmin(pmax(round(rate1 + runif(n, -0.1, 0.1), 3), 0.05), 0.95)
k0 <- round(runif(n, 0, 0.6), 3)
k1 <- pmin(round(k0 + runif(n, 0.1, 0.35), 3), 0.95)
alpha <- sample(c(0.01, 0.05, 0.1), n, replace = TRUE)
power <- sample(c(0.8, 0.9), n, replace = TRUE)
twosided <- sample(c(FALSE, TRUE), n, replace = TRUE)
N <- mapply(function(a, b, c, d, e, f, g) N.cohen.kappa(a, b, c, d, alpha = e, power = f,
                                                        twosided = g),
            rate1, rate2, k1, k0, alpha, power, twosided)
write.csv(data.frame(rate1, rate2, k1, k0, alpha, power, twosided, N), stdout(),
          row.names = FALSE)
