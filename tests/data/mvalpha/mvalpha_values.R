# Krippendorff & Craggs's (2016) mvα by the R package mvalpha 0.6.0, for the cases of a JSON
# file; run by make_fixtures.py (see there for how to install R and mvalpha).
#
#   Rscript mvalpha_values.R cases.json results.json
#
# A case is {"name", "type", "cells"}: cells[[unit]][[observer]] is null (a missing judgement),
# [] (the empty set) or a list of values. mvalpha takes a data frame with a list column per
# observer, NA for a missing judgement and NULL for the empty set.
suppressMessages(library(jsonlite))
suppressMessages(library(mvalpha))

args <- commandArgs(trailingOnly = TRUE)
cases <- fromJSON(args[1], simplifyVector = FALSE)

as_frame <- function(cells) {
  n_units <- length(cells)
  n_obs <- length(cells[[1]])
  cols <- lapply(seq_len(n_obs), function(j) {
    col <- vector("list", n_units)  # NULL everywhere: the empty set
    for (i in seq_len(n_units)) {
      cell <- cells[[i]][[j]]
      if (is.null(cell)) {
        col[i] <- list(NA)
      } else if (length(cell) > 0) {
        col[[i]] <- unlist(cell)
      }
    }
    col
  })
  names(cols) <- sprintf("obs_%02d", seq_len(n_obs))
  structure(cols, class = "data.frame", row.names = sprintf("unit_%03d", seq_len(n_units)))
}

results <- lapply(cases, function(case) {
  frame <- as_frame(case$cells)
  out <- NULL
  error <- NULL
  invisible(capture.output(  # mvalpha prints its progress from C++
    out <- tryCatch(suppressWarnings(mvalpha(frame, type = case$type, verbose = FALSE)),
                    error = function(e) { error <<- conditionMessage(e); NULL })))
  if (is.null(out)) return(list(name = case$name, type = case$type, error = error))
  list(name = case$name, type = case$type, mvalpha = out$mvalpha, mvDo = out$mvDo,
       mvDe = out$mvDe)
})
info <- list(R = R.version.string, mvalpha = as.character(packageVersion("mvalpha")),
             results = results)
writeLines(toJSON(info, auto_unbox = TRUE, digits = NA, na = "null", pretty = TRUE), args[2])
