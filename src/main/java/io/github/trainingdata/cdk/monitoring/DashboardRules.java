package io.github.trainingdata.cdk.monitoring;

import io.github.trainingdata.cdk.SynthRule;

/** The synth-time rules of TrainingDataDashboard, one constant each (listed in docs/rules.md). */
final class DashboardRules {
    static final SynthRule NOT_EMPTY = SynthRule.of("DASHBOARD_NOT_EMPTY", "TrainingDataDashboard",
            "stores, preloads and definitions",
            "at least one store, preload or definition to show",
            "library");
    static final SynthRule PERIOD = SynthRule.of("DASHBOARD_PERIOD", "TrainingDataDashboard", "period",
            "a whole number of minutes, at least 1",
            "CloudWatch metrics published once a minute");

    private DashboardRules() {
    }
}
