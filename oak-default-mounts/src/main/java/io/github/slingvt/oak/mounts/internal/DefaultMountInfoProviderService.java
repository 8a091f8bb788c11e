package io.github.slingvt.oak.mounts.internal;

import java.util.Collection;

import org.apache.jackrabbit.oak.spi.mount.Mount;
import org.apache.jackrabbit.oak.spi.mount.MountInfoProvider;
import org.apache.jackrabbit.oak.spi.mount.Mounts;
import org.osgi.service.component.annotations.Component;

/**
 * Oak's default mount layout (everything in the one default mount) as a service. Delegates to
 * {@link Mounts#defaultMountInfoProvider()} so that behaviour is exactly Oak's; this class only publishes it,
 * because the publishing component (MountInfoProviderService) ships in oak-store-composite, absent here.
 */
@Component(service = MountInfoProvider.class, property = "service.ranking:Integer=-1000")
public final class DefaultMountInfoProviderService implements MountInfoProvider {

    private final MountInfoProvider delegate = Mounts.defaultMountInfoProvider();

    @Override
    public Mount getMountByPath(String path) {
        return delegate.getMountByPath(path);
    }

    @Override
    public Collection<Mount> getNonDefaultMounts() {
        return delegate.getNonDefaultMounts();
    }

    @Override
    public Mount getMountByName(String name) {
        return delegate.getMountByName(name);
    }

    @Override
    public boolean hasNonDefaultMounts() {
        return delegate.hasNonDefaultMounts();
    }

    @Override
    public Collection<Mount> getMountsPlacedUnder(String path) {
        return delegate.getMountsPlacedUnder(path);
    }

    @Override
    public Collection<Mount> getMountsPlacedDirectlyUnder(String path) {
        return delegate.getMountsPlacedDirectlyUnder(path);
    }

    @Override
    public Mount getDefaultMount() {
        return delegate.getDefaultMount();
    }
}
