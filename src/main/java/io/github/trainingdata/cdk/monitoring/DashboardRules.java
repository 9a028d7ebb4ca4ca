package io.github.trainingdata.cdk.monitoring;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.internal.Deployments;
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

    static final SynthRule SAME_DEPLOYMENT = SynthRule.of("DASHBOARD_SAME_DEPLOYMENT", "TrainingDataDashboard",
            "stores, preloads",
            "a Lustre cache or EFS store whose file system id is a deploy-time value, and any preload, in the "
                    + "dashboard's stack (or one deployed with it)",
            "library (CloudWatch dashboard widgets name the file system id and the preload's worker job at deploy "
                    + "time; across stacks a replacement or re-warm would not reach the dashboard's stack)");

    private DashboardRules() {
    }

    /**
     * Refuses a store or preload of another stack whose widgets would name a value its replacement or re-warm
     * changes (a file system id, the preload's worker job): that value would cross the stacks at deploy time.
     *
     * @param field    the field to name ({@code stores} or {@code preloads})
     * @param source   the store or preload
     * @param changing whether the values its rows read are deploy-time values a replacement or re-warm changes
     */
    static void checkSameDeployment(IConstruct scope, String field, IConstruct source, boolean changing) {
        if (changing && Deployments.separate(scope, source)) {
            throw ConfigurationError.of(SAME_DEPLOYMENT, scope, field, source.getNode().getPath(),
                    "a store or preload of the dashboard's stack: its widgets name " + (field.equals("preloads")
                            ? "the preload's worker job, which every re-warm changes"
                            : "the file system id, which a replacement changes")
                            + ", and a value passed across stacks at deploy time is not updated then; create the "
                            + "dashboard in the stack that owns it");
        }
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
