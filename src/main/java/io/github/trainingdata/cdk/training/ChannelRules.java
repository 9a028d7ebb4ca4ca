package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.ConfigurationError;
import software.constructs.IConstruct;

/** Raises a channel's rule violations with the definition's path and the channel's index in the field name. */
final class ChannelRules {
    private final IConstruct scope;
    private final int index;

    ChannelRules(IConstruct scope, int index) {
        this.scope = scope;
        this.index = index;
    }

    IConstruct scope() {
        return scope;
    }

    String field(String name) {
        return "channels[" + index + "]." + name;
    }

    ConfigurationError error(String field, Object value, String allowed) {
        return ConfigurationError.of(scope, field(field), value, allowed);
    }
}
