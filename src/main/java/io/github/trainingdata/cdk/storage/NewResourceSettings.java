package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import software.constructs.IConstruct;

/**
 * The rule that settings which only shape a new resource are not given together with an existing one, checked
 * over every setting of a props object: each of its getters is a new-resource setting unless it is named as one
 * that applies to an existing resource too. A setting added later is therefore covered without a list to keep in
 * step; forgetting to name a shared one rejects it loudly instead of ignoring it silently. Settings are read
 * through {@code get*} getters only, the convention of every props class here (a Boolean setting is
 * {@code getX()} too).
 */
final class NewResourceSettings {
    static final SynthRule EXISTING_OR_NEW = SynthRule.of("STORE_EXISTING_OR_NEW", "TrainingDataBucket, LustreCache, EfsStore",
            "new-resource settings",
            "either an existing resource or settings for a new one, not both",
            "library");

    private NewResourceSettings() {
    }

    /**
     * Throws when {@code props} gives any new-resource setting, naming every one given (in alphabetical order).
     *
     * @param scope the construct whose props are wrong
     * @param props the props (or a nested settings value such as a dataset) to inspect
     * @param fieldPrefix prefixed to each setting's name in the message, e.g. {@code datasets[0].}; may be empty
     * @param existingField the prop that carries the existing resource
     * @param existingNoun how the message names the existing resource
     * @param settingsNoun how the message names the new-resource settings
     * @param shared the settings (getter names without {@code get}, first letter lowercase) that apply to an
     *               existing resource as well, the existing-resource prop itself included
     */
    static void rejectWithExisting(IConstruct scope, Object props, String fieldPrefix, String existingField,
            String existingNoun, String settingsNoun, Set<String> shared) {
        List<String> given = Arrays.stream(props.getClass().getDeclaredMethods())
                .filter(NewResourceSettings::isGetter)
                .sorted(Comparator.comparing(Method::getName))
                .filter(getter -> !shared.contains(setting(getter)) && value(getter, props) != null)
                .map(getter -> fieldPrefix + setting(getter))
                .toList();
        if (!given.isEmpty()) {
            throw ConfigurationError.of(EXISTING_OR_NEW, scope,
                    given.get(0), "set together with " + existingField, "either an "
                    + "existing " + existingNoun + " or settings for a new one, not both (" + settingsNoun
                    + " settings given: " + String.join(", ", given) + ")");
        }
    }

    private static boolean isGetter(Method method) {
        return Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
                && method.getParameterCount() == 0 && method.getName().startsWith("get")
                && method.getName().length() > 3 && method.getReturnType() != void.class;
    }

    private static String setting(Method getter) {
        String name = getter.getName().substring(3);
        return name.substring(0, 1).toLowerCase(Locale.ROOT) + name.substring(1);
    }

    private static Object value(Method getter, Object props) {
        try {
            return getter.invoke(props);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + getter, e);
        }
    }
}
