package io.github.slingvt.oak.mounts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DefaultMountInfoProviderServiceTest {

    private final DefaultMountInfoProviderService provider = new DefaultMountInfoProviderService();

    @Test
    void everyPathLivesInTheDefaultMount() {
        assertThat(provider.hasNonDefaultMounts()).isFalse();
        assertThat(provider.getNonDefaultMounts()).isEmpty();
        assertThat(provider.getMountByPath("/content/vt-demo/a/b").isDefault()).isTrue();
        assertThat(provider.getMountByPath("/")).isSameAs(provider.getDefaultMount());
    }

    @Test
    void unknownMountNameIsNull() {
        assertThat(provider.getMountByName("libs")).isNull();
        assertThat(provider.getMountsPlacedUnder("/apps")).isEmpty();
    }
}
