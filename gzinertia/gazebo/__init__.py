"""What Gazebo builds from a model: the tensor gz-physics hands DART
(:mod:`~gzinertia.gazebo.dart`) and the Hydrodynamics system's Coriolis term
(:mod:`~gzinertia.gazebo.hydro_coriolis`), reproduced to compare with the true quantities.
"""

__all__: list[str] = []
