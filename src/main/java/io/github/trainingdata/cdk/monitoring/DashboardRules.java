package io.github.trainingdata.cdk.monitoring;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.DurationSeconds;
import io.github.trainingdata.cdk.SynthRule;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/** The synth-time rules of TrainingDataDashboard, one constant each (listed in docs/rules.md), and their check. */
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

    /**
     * Checks the dashboard's {@code props} and applies the default period.
     *
     * @return the period the widgets use: the given one, else {@code defaultPeriod}
     */
    static Duration check(IConstruct scope, TrainingDataDashboardProps props, Duration defaultPeriod) {
        Duration given = props.getPeriod();
        if (given != null) {
            Number seconds = DurationSeconds.of(given);
            if (seconds == null || !Token.isUnresolved(seconds)
                    && (seconds.longValue() < 60 || seconds.longValue() % 60 != 0)) {
                throw ConfigurationError.of(PERIOD, scope, "period", given.toHumanString(),
                        "a whole number of minutes, at least 1 (these metrics are published once a minute; a "
                        + "deploy-time value given as Duration.seconds(...))");
            }
        }
        if (props.getStores().isEmpty() && props.getPreloads().isEmpty() && props.getDefinitions().isEmpty()) {
            throw ConfigurationError.of(NOT_EMPTY, scope, "stores, preloads and definitions", "all empty",
                    "at least one store, preload or training-job definition to show");
        }
        return given != null ? given : defaultPeriod;
    }
}
