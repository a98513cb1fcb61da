# Fixtures of tests/stats/test_ratings.py: R's irr, psych, lme4 and epiR on random scores.
#
# Run from this folder:  Rscript make_fixtures.R
# (R 4.2 from Debian with r-cran-psych 2.2.9, r-cran-lme4 1.1-31, r-cran-epir 2.0.57 and
# r-cran-jsonlite; irr 0.84.1 from the CRAN mirror github.com/cran/irr, installed with
# R CMD INSTALL in a side library named by R_LIBS). It writes one CSV per data set (items as
# rows, coders as columns, NA missing) and fixtures.json with every reference value; the tests
# read those files and never call R.
suppressMessages({
  library(irr); library(psych); library(lme4); library(epiR); library(jsonlite)
})
set.seed(20261206)

# scores: an item effect, a coder offset, noise, rounded to a grid of 1..10 or kept continuous
make <- function(n, k, sd_item, sd_coder, sd_err, missing = 0, round_to = NA) {
  y <- outer(rnorm(n, 5, sd_item), rnorm(k, 0, sd_coder), "+") + matrix(rnorm(n * k, 0, sd_err), n)
  if (!is.na(round_to)) y <- round(y / round_to) * round_to
  if (missing > 0) {
    drop <- matrix(runif(n * k) < missing, n)
    for (i in 1:n) if (sum(!drop[i, ]) < 2) drop[i, sample(k, k - 2)] <- FALSE  # 2 or more per item
    for (i in 1:n) if (sum(!drop[i, ]) < 2) drop[i, ] <- FALSE
    y[drop] <- NA
  }
  colnames(y) <- paste0("c", 1:k)
  y
}

sets <- list(
  complete_small = make(8, 3, 1.5, 0.8, 1.0, round_to = 1),
  complete_mid = make(40, 4, 1.0, 0.5, 0.8),
  complete_ties = make(25, 5, 1.2, 0.3, 1.0, round_to = 1),
  complete_nocoder = make(30, 3, 1.0, 0.0, 1.0),        # MSC < MSE likely: REML truncates
  incomplete_mid = make(40, 4, 1.0, 0.6, 0.8, missing = 0.25),
  incomplete_big = make(120, 6, 1.3, 0.7, 1.0, missing = 0.4, round_to = 0.5),
  incomplete_two = make(30, 2, 1.0, 0.5, 0.7, missing = 0.2)
)

icc_forms <- list(c("oneway", "agreement", "single"), c("twoway", "consistency", "single"),
                  c("twoway", "agreement", "single"), c("oneway", "agreement", "average"),
                  c("twoway", "consistency", "average"), c("twoway", "agreement", "average"))

psych_table <- function(y, lmer) {
  t <- suppressWarnings(suppressMessages(psych::ICC(y, lmer = lmer)))$results
  list(type = as.character(t$type), ICC = t$ICC, F = t$F, df1 = t$df1, df2 = t$df2, p = t$p,
       lower = t[["lower bound"]], upper = t[["upper bound"]])
}

out <- list()
for (name in names(sets)) {
  y <- sets[[name]]
  write.csv(y, paste0(name, ".csv"), row.names = FALSE, na = "")
  res <- list()
  for (conf in c(0.95, 0.9)) {
    forms <- lapply(icc_forms, function(f) {
      r <- irr::icc(y, model = f[1], type = f[2], unit = f[3], conf.level = conf)
      list(model = f[1], type = f[2], unit = f[3], value = r$value, F = r$Fvalue,
           df1 = r$df1, df2 = r$df2, p = r$p.value, lower = r$lbound, upper = r$ubound,
           subjects = r$subjects)
    })
    res[[paste0("irr_icc_", conf * 100)]] <- forms
  }
  if (!anyNA(y)) res$psych_anova <- psych_table(y, lmer = FALSE)
  res$psych_lmer <- psych_table(y, lmer = TRUE)
  long <- data.frame(v = as.vector(y), item = factor(rep(seq_len(nrow(y)), ncol(y))),
                     coder = factor(rep(seq_len(ncol(y)), each = nrow(y))))
  fit <- lmer(v ~ 1 + (1 | item) + (1 | coder), data = long, REML = TRUE, na.action = na.omit)
  vc <- VarCorr(fit)
  res$lme4 <- list(item = vc$item[1, 1], coder = vc$coder[1, 1], error = attributes(vc)$sc^2,
                   reml_criterion = unname(REMLcrit(fit)))
  res$kendall_correct <- with(irr::kendall(y, correct = TRUE),
                              list(value = value, statistic = unname(statistic), p = p.value,
                                   subjects = subjects))
  res$kendall_plain <- with(suppressWarnings(irr::kendall(y, correct = FALSE)),
                            list(value = value, statistic = unname(statistic), p = p.value))
  pairs <- list()
  for (a in 1:(ncol(y) - 1)) for (b in (a + 1):ncol(y)) {
    for (conf in c(0.95, 0.9)) {
      e <- epiR::epi.ccc(y[, a], y[, b], ci = "z-transform", conf.level = conf)
      pairs[[length(pairs) + 1]] <- list(
        x = a - 1, y = b - 1, level = conf, value = e$rho.c$est, lower = e$rho.c$lower,
        upper = e$rho.c$upper, C_b = e$C.b, l_shift = e$l.shift, s_shift = e$s.shift,
        nmissing = e$nmissing,
        # epiR's Bland-Altman: mean difference x - y, sd and bias -/+ z sd at the level
        ba_bias = e$sblalt$est, ba_sd = e$sblalt$delta.sd, ba_lower = e$sblalt$lower,
        ba_upper = e$sblalt$upper)
    }
  }
  res$epi_ccc <- pairs
  out[[name]] <- res
}
out$versions <- list(R = R.version.string, irr = as.character(packageVersion("irr")),
                     psych = as.character(packageVersion("psych")),
                     lme4 = as.character(packageVersion("lme4")),
                     epiR = as.character(packageVersion("epiR")))
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE, na = "null"),
           "fixtures.json")
