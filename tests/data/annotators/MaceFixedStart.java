package edu.isi;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs MACE's own EStep / MStep / variationalMStep (Hovy et al.'s MACE.java) from a given
 * start instead of a random one, for make_fixtures.py.
 *
 *   order CSV OUT                      writes MACE's label order (tab-separated)
 *   fit CSV START ITERS em|vb SMOOTH OUT
 *       START: one line per annotator with (spamming, knowing), then one line per annotator
 *       with the strategy in MACE's label order; runs an E-step, then ITERS M- and E-steps as
 *       MACE.run does, and writes the log marginal likelihood, the spamming and strategy rows
 *       and the normalised posteriors of the items.
 */
public class MaceFixedStart {
    public static void main(String[] args) throws Exception {
        MACE m = new MACE(args[1]);
        if (args[0].equals("order")) {
            try (PrintWriter w = new PrintWriter(args[2], "UTF-8")) {
                w.println(String.join("\t", m.int2String));
            }
            return;
        }
        int iters = Integer.parseInt(args[3]);
        boolean vb = args[4].equals("vb");
        double smoothing = Double.parseDouble(args[5]);
        m.initialize(0.5, 0.5, 0.5);  // priors (alpha, beta) = (0.5, 0.5), strategy prior 10
        try (BufferedReader r = new BufferedReader(new FileReader(args[2]))) {
            for (int a = 0; a < m.numAnnotators; ++a) {
                String[] f = r.readLine().split("\t");
                m.spamming[a][0] = Double.parseDouble(f[0]);
                m.spamming[a][1] = Double.parseDouble(f[1]);
            }
            for (int a = 0; a < m.numAnnotators; ++a) {
                String[] f = r.readLine().split("\t");
                for (int l = 0; l < m.numLabels; ++l) {
                    m.thetas[a][l] = Double.parseDouble(f[l]);
                }
            }
        }
        Map<Integer, Integer> controls = new HashMap<Integer, Integer>();
        m.EStep(controls);
        for (int t = 0; t < iters; ++t) {
            if (vb) {
                m.variationalMStep();
            } else {
                m.MStep(smoothing);
            }
            m.EStep(controls);
        }
        try (PrintWriter w = new PrintWriter(args[6], "UTF-8")) {
            w.println(Double.toString(m.logMarginalLikelhood));
            for (int a = 0; a < m.numAnnotators; ++a) {
                w.println(m.spamming[a][0] + "\t" + m.spamming[a][1]);
            }
            for (int a = 0; a < m.numAnnotators; ++a) {
                StringBuilder b = new StringBuilder();
                for (int l = 0; l < m.numLabels; ++l) {
                    b.append(l == 0 ? "" : "\t").append(m.thetas[a][l]);
                }
                w.println(b);
            }
            for (int d = 0; d < m.numInstances; ++d) {
                double z = 0.0;
                for (int l = 0; l < m.numLabels; ++l) {
                    z += m.goldLabelMarginals[d][l];
                }
                StringBuilder b = new StringBuilder();
                for (int l = 0; l < m.numLabels; ++l) {
                    b.append(l == 0 ? "" : "\t").append(m.goldLabelMarginals[d][l] / z);
                }
                w.println(b);
            }
        }
    }
}
